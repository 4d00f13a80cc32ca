"""Wizards (the largest of the three games): rules engine, content pack, AI policy and text drawing.

    engine.WizardsEngine   the contract of shared.engine, flow as steps (setup.py, turns.py)
    pack / content/        the content pack: board, 18 tiles, cards, tables, with origins
    policy.choose          the AI seat; render.render / render_events for terminals
"""
