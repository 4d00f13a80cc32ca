"""Tower of the Wizard King: rules engine, content pack, AI policy and text rendering.

    from shared.tower.engine import TowerEngine
"""
