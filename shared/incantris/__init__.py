"""Incantris: magical combat between teams of three wizards on a hex arena (rules/incantris.txt).

Modules, each with one job:
    pack        the content pack (content/incantris.json, checked against content/schema.json
                and by the loader: tiles laid once, obstacles on open ground, all spells held)
    arena       tiles laid on the hex grid: whole and partial hexes, terrain by the 50% rule
    sight       range and line of sight ("from any part of the caster's hex to the centre")
    state       the typed match state: its fields, what a step copies and what it shares
    match       the questions every rule asks of the state
    movement    step costs, obstacles, team-mates, Bear Presence, Water Walk, forced moves
    walking     the active wizard's steps and what they set off (Retribution, Blaze)
    turns       rounds, turns, activations, skipped turns, split movement
    casting     declaring spells: targets, range, sight, the Spell Totem, the hydra's Flame Darts
    attack      one roll of the casting dice, wands against wards, items on the roll
    dice        the casting dice: wands, wards, ward rolls (Bane, crystals, Table 3)
    spells      what each spell does once its dice are read
    effects     persistent spells: recasting, cancelling, Cleansing Fire, Blaze
    wounds      damage, healing and death
    scenarios   crystals and victory for the four scenarios and the solo game
    resigning   a player who resigns: his team eliminated, the match going on or ending by its scenario
    shifting    the Shifting Arena's turning arms
    attackers   the solo game's attacking team, played by its printed rules
    campaign    victory points, experience stars and items across four games
    setup       match set-up, obstacle checks and placing wizards
    tasks       what a pending step is (Task) and the rulebook sentence a refusal quotes (Clause)
    flow        the queue of pending steps (push, pop, front); it imports no rule
    play        the side's turn: activating a wizard and the active wizard's actions (ACTIONS)
    invariants  what must always hold in a state (check_invariants)
    engine      the GameEngine the platform serves: the TASKS table, the stages, settle
    queries     board queries: line of sight, range, reachable hexes, spell targets (README.md)
    policy      an AI seat that reads only its view
    determinize the whole state a seat's view shows (everything is public), for the AI's search
    levels      the AI levels: easy (the policy with noise), normal (policy.choose), hard (the search)
    render      the arena and events as text: named cells (a ruler), a legend, the entry points
"""
