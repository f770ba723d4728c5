# cython: language_level=3
"""Mount Tai: Eight Praises, game-end scoring and ranking (see scoring.pxd)."""

from engine.core.eventlog cimport ev_emit, EV_NONE
from engine.mount_tai.state cimport *
from engine.mount_tai.events cimport (
    EV_FINAL_TALENT, EV_TUTOR_REPUTATION, TR_STUDY, TR_CONSPIRACY, TR_DONATION_FINAL,
)
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.players cimport (
    talent_level, has_skill, building_count, talents_at_least, talent_levels, add_rep,
)
from engine.mount_tai.mountain cimport (
    highest_layer, layers_reached, layer_held, count_cells, cell_height, next_to_water,
)

cdef const MTTables* T = mt_tables()


cdef int praise_measure(const MTState* s, int seat, int praise, int year) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[seat]
    if praise == PR_HEIGHT:
        # Year 2 "for each layer of the personal fief the player has reached": the layers
        # holding a tile, not the highest one. Year 1 "cultivates the 2nd layer", read the same
        # way: layer 2 holds a tile. Its measure counts layers 1 and 2 (layer 1 holds the first
        # development site), so {1, 3} measures 1 and {1, 2} measures 2 (at least 2 pays).
        if s.opt.legacy:
            return highest_layer(pl)    # legacy_readings: the highest layer (before issue 13)
        if year == 0 and not s.opt.gao_yi_above:
            return 1 + layer_held(pl, 2)
        return layers_reached(pl)       # year 2; year 1 with gao_yi_above_layer_1 (any layer)
    if praise == PR_FARMLAND:
        return count_cells(pl, C_FARMLAND)
    if praise == PR_BUILDINGS:
        return building_count(pl)
    if praise == PR_MONEY:
        return pl.res[RES_MONEY]
    if praise == PR_TALENTS:
        return talents_at_least(pl, 2 if year == 0 else 3)
    if praise == PR_GRAIN:
        return pl.res[RES_GRAIN]
    if praise == PR_TOWNS:
        return count_cells(pl, C_TOWN)
    return pl.res[RES_WINE]


cdef int praise_reward(const MTState* s, int seat, int praise, int year) noexcept nogil:
    cdef int m = praise_measure(s, seat, praise, year)
    if year == 0:
        return T.praise_y1_rep[praise] if m >= T.praise_y1_min[praise] else 0
    return (m // T.praise_y2_unit[praise]) * T.praise_y2_rep[praise]


cdef int water_tiles(const MTState* s, int seat) noexcept nogil:
    """Settlement, farmland and town tiles of `seat` next to water."""
    cdef const MTPlayer* pl = &s.p[seat]
    cdef int l, n = 0
    for l in range(N_CELLS):
        if C_SETTLEMENT <= pl.cell[l] <= C_TOWN and next_to_water(s, seat, l):
            n += 1
    return n


cdef int skill3_plain(const MTState* s, int seat, int kind) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[seat]
    cdef int l, r, j, v = 0, n, other
    cdef bint lead
    if kind == T_AGRI:
        return count_cells(pl, C_FARMLAND)
    if kind == T_COMMERCE:
        return T.commerce_rep[0] * (count_cells(pl, C_TOWN) // T.commerce_rep[1])
    if kind == T_SACRIFICE:
        return talent_levels(pl)
    if kind == T_BREWER:
        return pl.res[RES_WINE]
    if kind == T_ADMIN:
        return pl.tier3
    if kind == T_PIONEER:
        for l in range(N_CELLS):
            if pl.cell[l] != C_EMPTY and pl.cell[l] != C_ASCENT and 2 <= cell_height(l) <= 3:
                v += 1
        return v
    if kind == T_PUBLICIST:
        n = T.solo_publicist_players if s.opt.solo else s.opt.n_players
        for r in range(3):
            if pl.res[r] <= 0:
                continue
            lead = True
            for other in range(s.opt.n_players):
                if other != seat and s.p[other].res[r] > pl.res[r]:
                    lead = False
            if lead:
                v += n
        return v
    if kind == T_TRADER:
        return pl.res[RES_GRAIN] if pl.res[RES_GRAIN] < pl.res[RES_MONEY] else pl.res[RES_MONEY]
    if kind == T_ARCHITECT:
        return T.architect_rep[0] * (building_count(pl) // T.architect_rep[1])
    if kind == T_DUGU:
        return T.dugu_rep if pl.n_talents == 1 else 0
    if kind == T_FIRSTBORN:
        v = praise_reward(s, seat, s.praise[1][N_SEASONS - 1], 1)
        if v > 0 and has_skill(pl, T_FIRSTBORN, 2):
            v += T.firstborn_praise
        return v
    if kind == T_VANGUARD:
        return T.vanguard_rep * pl.firsts
    if kind == T_ELDER:
        return T.elder_rep * building_count(pl)
    if kind == T_ZHENG:
        return T.zheng_rep[0] * (water_tiles(s, seat) // T.zheng_rep[1])
    return 0   # T_SECRETARY: its level 3 skill is the extra policy decision; T_YINYANG below


cdef int skill3_value(const MTState* s, int seat, int kind) noexcept nogil:
    cdef int other, i, k, v, best = 0
    if kind != T_YINYANG:
        return skill3_plain(s, seat, kind)
    # "copy one level 3 skill of another player's talent card": the best one for the holder.
    for other in range(s.opt.n_players):
        if other == seat:
            continue
        for i in range(s.p[other].n_talents):
            k = s.p[other].talent[i]
            if k == T_YINYANG or k == T_SECRETARY:
                continue
            v = skill3_plain(s, seat, k)
            if v > best:
                best = v
    return best


cdef int leaders_share(const MTState* s, int seat, int* values, int award) noexcept nogil:
    """`award` divided (rounding down) among the seats with the highest value above 0; what
    `seat` receives."""
    cdef int i, best = 0, tied = 0
    for i in range(s.opt.n_players):
        if values[i] > best:
            best = values[i]
    if best <= 0 or values[seat] != best:
        return 0
    for i in range(s.opt.n_players):
        if values[i] == best:
            tied += 1
    return award // tied


cdef void final_scoring(MTState* s) noexcept nogil:
    cdef int gains[MAX_PLAYERS]
    cdef int values[MAX_PLAYERS]
    cdef int seat, i, t, v, n = s.opt.n_players
    cdef MTPlayer* pl
    # Every level 3 skill is computed on the final position before any of them is added. Each
    # part is told by an event as it is computed (all are >= 0, so the sum added is the sum of
    # the events' reputation).
    for seat in range(n):
        pl = &s.p[seat]
        gains[seat] = 0
        for i in range(pl.n_talents):
            if pl.level[i] >= 3:
                v = skill3_value(s, seat, pl.talent[i])
                gains[seat] += v
                if pl.talent[i] != T_SECRETARY:
                    ev_emit(EV_FINAL_TALENT, seat, pl.talent[i], v, i, 0, 0)
    for seat in range(n):
        add_rep(&s.p[seat], SRC_FINAL, gains[seat])
    if not s.opt.grand_tutors:
        return
    for seat in range(n):
        gains[seat] = T.study_rep * s.p[seat].study
        if gains[seat] > 0:
            ev_emit(EV_TUTOR_REPUTATION, seat, TU_SCHOLAR, gains[seat], EV_NONE, TR_STUDY,
                    s.p[seat].study)
    # Conspirator targets: farmland, towns, buildings, talent levels, wine.
    for seat in range(n):
        if s.p[seat].tutor == TU_CONSPIRATOR:
            for t in range(5):
                for i in range(n):
                    pl = &s.p[i]
                    if t == 0:
                        values[i] = count_cells(pl, C_FARMLAND)
                    elif t == 1:
                        values[i] = count_cells(pl, C_TOWN)
                    elif t == 2:
                        values[i] = building_count(pl)
                    elif t == 3:
                        values[i] = talent_levels(pl)
                    else:
                        values[i] = pl.res[RES_WINE]
                for i in range(n):
                    v = leaders_share(s, i, values, T.conspirator_rep)
                    if s.p[i].tutor == TU_CONSPIRATOR:
                        v = 2 * v
                    gains[i] += v
                    if v > 0:
                        ev_emit(EV_TUTOR_REPUTATION, i, TU_CONSPIRATOR, v, seat, TR_CONSPIRACY, t)
        if s.p[seat].tutor == TU_PHILANTHROPIST:
            for i in range(n):
                values[i] = s.p[i].donation
            for i in range(n):
                v = leaders_share(s, i, values, T.donation_final)
                gains[i] += v
                if v > 0:
                    ev_emit(EV_TUTOR_REPUTATION, i, TU_PHILANTHROPIST, v, seat, TR_DONATION_FINAL,
                            values[i])
    for seat in range(n):
        add_rep(&s.p[seat], SRC_TUTORS, gains[seat])


cdef int compare_seats(const MTState* s, int a, int b) noexcept nogil:
    """> 0 if seat a finishes ahead of seat b, < 0 if behind, 0 if tied after the tie-break."""
    cdef int season, kind
    if s.p[a].res[RES_REP] != s.p[b].res[RES_REP]:
        return s.p[a].res[RES_REP] - s.p[b].res[RES_REP]
    for season in range(N_SEASONS):
        kind = s.season_bonus[season]     # EV_MONEY..EV_REPUTATION == RES_*
        if s.p[a].res[kind] != s.p[b].res[kind]:
            return s.p[a].res[kind] - s.p[b].res[kind]
    return 0


cdef void mt_ranks(const MTState* s, int* out) noexcept nogil:
    cdef int i, j, r, n = s.opt.n_players
    for i in range(n):
        r = 0
        for j in range(n):
            if j != i and compare_seats(s, j, i) > 0:
                r += 1
        out[i] = r


cdef int solo_goal(const MTState* s) noexcept nogil:
    if s.opt.challenge:
        return T.goal[s.opt.challenge - 1]
    return T.solo_goal


cdef bint solo_goal_reached(const MTState* s) noexcept nogil:
    return s.p[0].res[RES_REP] >= solo_goal(s)
