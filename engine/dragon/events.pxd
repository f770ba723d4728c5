# In the Year of the Dragon: the kinds of rule events the compiled rules emit (`ev_emit`, see
# engine/core/eventlog.pxd), and their cause codes.
#
# Each kind is one `EVK_*` id (the prefix `EV_` is taken by the event tiles of state.pxd); its
# name, amount names and text are in `events.py` (the `EventTable`, indexed by these ids: a test
# checks both agree). For each kind below: who `seat` is, what `cause` is, and what the amounts
# a, b, c, d mean. Months are 1-based, palaces 1-based (as a player counts them, at that moment),
# groups 1-based; `-1` (EV_NONE) = no seat / no cause / no value.
#
# Every change of a seat's victory points is exactly one EVK_VP_* event (emitted by `add_vp` in
# rules.pyx, never elsewhere), whose `a` is the points: the sum of a seat's `a` over its
# EVK_VP_* events is its score.

cdef enum:
    # -- setup ----------------------------------------------------------------------------------
    EVK_SETUP = 0            # seat -1. a yuan, b palaces, c floors each, d person cards (each seat)
    EVK_EVENT_TILE = 1       # seat -1, cause -1. a month (1-12), b event tile (EV_*) laid there
    EVK_SUPER_EVENT_SET = 2  # seat -1. a super event (SE_*), b 1 drawn at random / 0 chosen
    # -- a month begins -------------------------------------------------------------------------
    EVK_MONTH = 3            # seat -1. a month, b its event tile (EV_*), c super event (SE_*) on
                             #   month 7 with the expansion, else -1
    EVK_GROUP = 4            # seat -1. a group (1-based), b bit mask of its action cards (CARD_*),
                             #   c cards in it (the month's shuffled split, face up for all)
    # -- the action phase (the automatic money of a decision) -----------------------------------
    EVK_FEE = 5              # seat pays. a yuan paid (3) to join a group holding a dragon,
                             #   b the card (CARD_*), c the group (1-based)
    EVK_TOPUP = 6            # seat takes no action. a yuan gained (0 if it had 3 or more),
                             #   b yuan now
    EVK_CARD = 7             # seat takes an action card other than research (that is an EVK_VP_*):
                             #   a card (CARD_TAXES..CARD_PARADE, CARD_PRIVILEGE, CARD_WALL),
                             #   b amount gained (yuan / floors / rice / fireworks / steps; the
                             #   privilege's dragons; the wall section's number 1-12),
                             #   c of which from its persons' symbols (0 for privilege / wall),
                             #   d privilege: yuan paid; wall: the tile's bonus (WB_*); else -1
    # -- the month's event ----------------------------------------------------------------------
    EVK_TRIBUTE = 8          # seat, cause EV_TRIBUTE. a yuan paid, b yuan missing (= persons
                             #   to release), c yuan left
    EVK_DROUGHT = 9          # seat, cause EV_DROUGHT. a inhabited palaces, b rice paid,
                             #   c palaces left unsupplied (each releases 1 person), d rice left
    EVK_CONTAGION = 10       # seat, cause EV_CONTAGION. a mortars, b persons to release (3 - a)
    EVK_MONGOL_FEWEST = 11   # seat with the fewest helmets, cause EV_MONGOL. a its helmets,
                             #   b persons to release (1); the helmets' VP are EVK_VP_MONGOL
    EVK_FESTIVAL = 12        # seat -1, cause EV_FESTIVAL. a most fireworks tiles (0: nobody has
                             #   any), b the next distinct count (0: none), c seats with a,
                             #   d seats with b (their VP are EVK_VP_FESTIVAL)
    EVK_ECLIPSE = 13         # seat -1, cause super event. a the event tile (EV_*) that happens
                             #   a second time (the Solar Eclipse)
    EVK_RELEASE = 14         # seat releases a person it chose, cause why: the event tile (EV_*),
                             #   CAUSE_WALL / CAUSE_WALL_FINAL, the earthquake, CAUSE_FULL_PALACES.
                             #   a person type, b palace (0: the newcomer, never placed),
                             #   c releases still owed for this cause
    # -- the Great Wall -------------------------------------------------------------------------
    EVK_WALL_SCORING = 15    # seat -1, cause CAUSE_WALL / CAUSE_WALL_FINAL. a sections built,
                             #   b sections needed, c 1 if reached (VP per section) else 0
                             #   (the fewest builders release 1)
    EVK_WALL_FEWEST = 16     # seat among the fewest builders of a short wall, cause as above.
                             #   a its sections, b persons to release (1)
    # -- the super event (month 7) --------------------------------------------------------------
    EVK_SUPER_EVENT = 17     # seat -1, cause the super event. a super event (SE_*): it happens
    EVK_PRIVILEGES_LOST = 18  # seat, cause assassination. a small, b large privileges discarded
    EVK_VOLCANO = 19         # seat, cause volcano. a its track space before (now 0), b its place
                             #   in the order (1 = first), kept
    EVK_QUAKE_DUE = 20       # seat, cause earthquake. a floors it must remove, b floors it has
    EVK_FLOOR_LOST = 21      # seat, cause earthquake / decay. a palace, b floors left,
                             #   c 1 if the palace is gone
    EVK_FLOOD_DUE = 22       # seat, cause flood. a yuan + rice + fireworks, b tiles to discard
    EVK_TORNADO_DUE = 23     # seat, cause tornado. a person cards held, b cards to discard
    EVK_CONTRACT = 24        # seat, cause contract. a person kind chosen (KIND_*), b amount
                             #   gained (yuan / rice / fireworks / steps / floors; healers 0);
                             #   VP gains are EVK_VP_SUPER_EVENT
    # -- game end -------------------------------------------------------------------------------
    EVK_FINAL_RANK = 25      # seat, cause CAUSE_FINAL_SCORING. a place (1 = winner), b score,
                             #   c track space, d seats with the same score (1: no tie; more:
                             #   the person track broke it)
    # -- victory points: one kind per source (SRC_*), emitted by add_vp only ---------------------
    # Each: seat scores, a VP, b and c details (below), d its score after.
    EVK_VP_RESEARCH = 26     # cause -1. b books on its persons, c the card's base (1)
    EVK_VP_FESTIVAL = 27     # cause EV_FESTIVAL. b its fireworks tiles, c tiles it returns
    EVK_VP_MONGOL = 28       # cause EV_MONGOL. b helmets
    EVK_VP_PALACES = 29      # cause CAUSE_MONTH_SCORING. b palaces
    EVK_VP_COURT_LADIES = 30  # cause CAUSE_MONTH_SCORING. b fans
    EVK_VP_PRIVILEGES = 31   # cause CAUSE_MONTH_SCORING. b small, c large privileges
    EVK_VP_WALL = 32         # cause CAUSE_WALL / CAUSE_WALL_FINAL. b its wall sections
    EVK_VP_WALL_BONUS = 33   # cause -1. b the wall section (1-12) whose 3-VP tile it built
    EVK_VP_SUPER_EVENT = 34  # cause the super event. lantern: b persons; buddha: b monks;
                             #   contract: b the kind chosen (KIND_*), c its symbols
    EVK_VP_PERSONS = 35      # cause CAUSE_FINAL_SCORING. b persons
    EVK_VP_MONKS = 36        # cause CAUSE_FINAL_SCORING. b monks
    EVK_VP_MONEY = 37        # cause CAUSE_FINAL_SCORING. b yuan after the sale, c rice and
                             #   fireworks tiles sold
    EVK_COUNT = 38           # the number of kinds

# Causes (the `cause` of an event): the event tiles EV_* (0-5), then these.
cdef enum:
    CAUSE_SUPER = 6          # + SE_*: a super event (6-15)
    CAUSE_WALL = 16          # the wall scoring after a Mongol invasion
    CAUSE_WALL_FINAL = 17    # the wall scoring after month 12
    CAUSE_MONTH_SCORING = 18
    CAUSE_FINAL_SCORING = 19
    CAUSE_FULL_PALACES = 20  # recruiting with every palace full: a person (or the newcomer) goes
    CAUSE_DECAY = 21         # an uninhabited palace decays
    N_CAUSES = 22
