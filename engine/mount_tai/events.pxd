# Mount Tai: the kinds of rule events (engine/core/eventlog.pxd) the rules emit.
#
# The rules call `ev_emit(kind, seat, cause, a, b, c, d)` at each automatic step; the kinds are
# named, with the meaning of `seat`, `cause` and the amounts a, b, c, d, in events.py (the
# `EventTable` of MountTaiState, in this order: a test checks that the two agree). Below, each
# member says the same. Ids used as values: seats 0-3, the virtual player VIRTUAL (4); T_* talent,
# B_* building, PR_* Eight Praises, TU_* tutor, RES_* resource, EV_MONEY.. event-tile kinds
# (state.pxd); -1 (EV_NONE) = none.
#
# Every change of a player's reputation is one event of a kind whose `reputation` amount is the
# change actually made (after the "never below 0" clamp), so that over a game the reputation of
# each seat's events sums to its final reputation. Nothing face down is named by an event: the
# virtual player's undrawn tiles, the building supply, the talent cards under the piles' tops
# and (challenge 5-7) covered face-down edict tiles appear only as counts until they turn face up.

cdef enum:
    # --- setup (what is laid face up) ---
    EV_MOUNTAIN_TILE = 0    # seat -1; a quadrant, b tile (large 0-3 / small 0-3), c quarter turns, d size (3 large, 2 small)
    EV_EVENT_TILE = 1       # seat -1; a round of the year (0-7), b colour space, c event tile id
    EV_SEASON_BONUS = 2     # seat -1; a season (0-3), b the bonus tile's type (RES_*)
    EV_PRAISE_TILE = 3      # seat -1; a year (0-1), b season (0-3), c PR_*
    EV_PLAYER_START = 4     # seat; cause: the first cell's kind (C_SETTLEMENT / C_TOWN); a money, b grain, c wine, d reputation (compensation)
    EV_EDICTS_DEALT = 5     # seat; cause: layout (LAY_*); a tiles face up, b tiles face down
    EV_TUTOR_DRAWN = 6      # seat; a TU_*
    EV_VIRTUAL_DEALT = 7    # seat VIRTUAL; a tier I, b tier II, c tier III tiles dealt face down
    EV_CARRIED_TALENT = 8   # seat 0 (challenge); a T_*, b level
    EV_CARRIED_BUILDING = 9 # seat 0 (challenge); a B_*
    # --- supplies: what turns face up ---
    EV_PILE_TOP = 10        # seat -1; a pile (0-4), b T_* of its new face-up top (-1: empty), c cards left
    EV_BLUEPRINT_FLIP = 11  # seat -1; a B_* flipped from the supply, b its blueprint position, c tiles there now, d tiles left in the supply
    # --- the round's flow ---
    EV_ROUND_START = 12     # seat -1; a round (0-15), b year (0-1), c season (0-3), d round of the season (0-1)
    EV_EVENTS_RENEWED = 13  # seat -1; after the year 1 winter settlement every event tile is face up again
    EV_TURN_ORDER = 14      # seat (or VIRTUAL); a position (0 = first), b number (edict tile; 30 = passed), c 1 if the Vanguard's -1 applied
    EV_VANGUARD_FIRST = 15  # seat; a times first in turn order with the Vanguard so far
    EV_EVENT_FLIPPED = 16   # seat (or VIRTUAL: flips without gain); a event tile id, b colour space, c round of the year
    EV_NO_EVENT = 17        # seat; cause 0 no event tile left, 1 challenge game 4 (only when first)
    EV_EVENT_REWARD = 18    # seat; a RES_*, b amount actually gained (may be < 0), c season bonus included (0/1), d reputation (= b if a is reputation)
    EV_REWARD_BONUS = 19    # seat; cause T_* (Publicist, Vanguard); a level, b added to the event reward
    EV_TIDY_UP = 20         # seat; a tiles removed, b the lowest number (the turn-order number in the policy phase)
    EV_EDICT_REVEALED = 21  # seat; a slot, b the edict tile that turned face up (challenge 5-7)
    # --- skills and action results the rules apply on their own ---
    EV_SKILL_RESOURCE = 22  # seat; cause T_*; a level, b RES_* (not reputation), c amount
    EV_SKILL_REPUTATION = 23  # seat; cause T_*; a reputation, b level of the skill
    EV_FIRSTBORN_GIFT = 24  # seat; a money, b grain, c wine, d reputation
    EV_CELEBRATION = 25     # seat; a reputation, b grain, c wine, d money paid
    EV_SACRIFICE_HEAVEN = 26  # seat; a reputation, b grain, c wine, d money paid
    # --- seasonal settlement ---
    EV_SETTLEMENT = 27      # seat -1; a season, b year: the seasonal settlement begins
    EV_SETTLE_BUILDING = 28 # seat; cause B_*; a RES_*, b amount, c the farmland / towns it counts (0: a flat yield)
    EV_SETTLE_LAND = 29     # seat; cause 0 farmland, 1 towns; a RES_*, b amount, c tiles
    EV_PRAISE = 30          # seat; cause PR_*; a reputation, b the measure counted, c year, d season
    EV_STUDY_MARKER = 31    # seat (-1: discarded, nobody gained); a markers held now, b the Eight Praises gain that won it
    EV_TUTOR_REPUTATION = 32  # seat; cause TU_*; a reputation, b the other seat (-1: none), c reason (TR_*), d a count (threshold, target, markers)
    EV_CHALLENGE_LOSS = 33  # seat 0; a money lost (challenge game 2, after each settlement)
    # --- game end ---
    EV_FINAL_TALENT = 34    # seat; cause T_*; a reputation of the card's level 3 skill, b the card (index)
    EV_FINAL_RESULT = 35    # seat; a reputation, b rank (0 = first), c solo goal (-1: none), d goal reached (0/1)
    # --- the virtual player (solo) ---
    EV_VIRTUAL_DRAW = 36    # seat VIRTUAL; a the edict tile drawn (now face up), b tiles left face down, c tier
    EV_VIRTUAL_BUILD = 37   # seat VIRTUAL; a B_* of the leftmost blueprint stack it removes, b tiles in it
    EV_VIRTUAL_RECRUIT = 38 # seat VIRTUAL; a the edict tile: the player now removes a wilderness talent
    N_EVENT_KINDS = 39

# Reasons of EV_TUTOR_REPUTATION (c).
cdef enum:
    TR_TOLL_PAID = 0        # Master Builder: built the marked kind, pays the holder
    TR_TOLL_RECEIVED = 1    # Master Builder's holder: receives the toll (b = who paid)
    TR_TEACHING = 2         # Scholar's holder: another player took a study marker (b = who)
    TR_DONATION = 3         # Philanthropist track: a threshold reached (d = the threshold)
    TR_PHILANTHROPIST = 4   # Philanthropist's holder: someone reached a threshold (b = who)
    TR_COMMANDER_LOSS = 5   # the Commander's target (b = the holder)
    TR_COMMANDER_GAIN = 6   # the Commander's holder (b = the target)
    TR_STUDY = 7            # game end: study markers held (d = markers)
    TR_CONSPIRACY = 8       # game end: a conspirator target led (d = target 0-4)
    TR_DONATION_FINAL = 9   # game end: furthest on the donation track (d = the space)
