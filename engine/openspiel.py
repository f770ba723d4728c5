"""tianti's games as OpenSpiel games, for running OpenSpiel's algorithms on them side by side
with ours (the optional extra `openspiel`: `pip install 'tianti[openspiel]'`).

Importing this module registers every game of `engine.registry` as an OpenSpiel Python game:

    import pyspiel
    import engine.openspiel                       # registers tianti_dragon, tianti_fusion, ...
    game = pyspiel.load_game("tianti_dragon(players=3,great_wall=True)")
    state = game.new_initial_state()

The OpenSpiel short name is `tianti_` + the tianti name with dashes made underscores
(`mount-tai` -> `tianti_mount_tai`). Its parameters are the tianti game's options under the same
names, plus `rng_seed` (-1: seeded by the operating system) which seeds the deals of the game's
new initial states, the way OpenSpiel's own sampled-stochastic games do. An option that may be
unset (default None) is "" when unset if it is a string, else -1; one that is unset, false or
true is an int parameter -1, 0 or 1 (`load()` and `parameters()` convert from tianti values).

How the tianti API maps onto OpenSpiel's:

- Chance is resolved inside `apply_action` by the state's own RNG, so the games are
  SAMPLED_STOCHASTIC: no state is ever a chance node.
- IMPERFECT_INFORMATION, GENERAL_SUM (the solo variants of a game have one seat, so the returns
  need not sum to a constant), TERMINAL rewards: `returns()` is 1 for the winner and 0 for the
  others (ties share the point), zeros before the end.
- `information_state_string(player)` comes from a py observer, as OpenSpiel's Python games do;
  see "The information-state key" below. No observation strings or tensors are provided.
- `resample_from_infostate(player_id, probability_sampler)` draws a 64-bit seed from the
  sampler and calls the tianti state's own `resample_from_infostate`.
- `clone()` is OpenSpiel's own (a new state plus a deep copy of the Python attributes); the
  wrapped tianti state deep-copies as a C-level copy of its struct, so that is cheap.
- Serialization (`pyspiel.serialize_game_and_state`) pickles the wrapped state, which pickles as
  its tianti game record (options, seed, actions, determinizations) and replays exactly.

The information-state key
-------------------------
OpenSpiel's ISMCTS keeps its nodes in one dictionary for the whole search, keyed by
(player to move, `information_state_string()`), so that string *is* the node key. It must:

1. determine the legal actions and separate decisions of different value: everything the
   player has observed, including the outcome of every chance event resolved inside
   `apply_action` (the month's action-card split in Dragon, a drawn tile). The action history
   alone is not enough: two determinizations with the same actions can have different action
   groups on the table and so different legal actions, and ISMCTS (unless told
   `allow_inconsistent_action_sets`) would then pick an action that is illegal in the world it
   is simulating, or pool the statistics of different decisions;
2. contain nothing the player cannot see (a face-down tile, another seat's hidden pieces, the
   RNG): otherwise every determinization would land in a node of its own and the "tree" would
   be a set of one-visit nodes;
3. be cheap, since it is computed at every tree node of every iteration.

The key is the game's own `information_state_string(player)` (by contract what the player
sees: 2, and the chance outcomes of 1) followed by the action history ("actions: 12 7 ..."),
which makes it perfect recall, as OpenSpiel's information states are. The history is needed:
Dragon's string is the position as seen plus the move count, and two histories can reach the
same such text with different legal actions (a multi-step release or build is offered in a
canonical order that depends on the choice made just before, which the text does not show);
OpenSpiel's ISMCTS then fails on a node whose actions differ from the state's. Adding the
history hides nothing that tianti does not already treat as known: every decision of the
current games is public (Dragon and Mount Tai), and a determinization always keeps the action
history (only `observe_action`, used by our MO-ISMCTS, tells observers' views apart). With the
history the nodes form a tree over action sequences with the chance outcomes seen, like ours.

For 3, the key is cached on the state until the next action (ISMCTS's `lookup_node` asks twice
per node). In Dragon it costs about 0.1 ms (2 players) to 0.16 ms (4 players), small beside a
Python random playout through OpenSpiel (several ms for a whole game), which dominates an
OpenSpiel ISMCTS iteration.
"""
from __future__ import annotations

import os
import random
import warnings
from typing import Any, Callable

try:
    import pyspiel
except ImportError as _error:  # the optional extra is not installed
    raise ImportError(
        "engine.openspiel needs OpenSpiel, which is an optional extra of tianti: install it "
        "with `pip install 'tianti[openspiel]'` (or `pip install open_spiel`)"
    ) from _error

from engine.core.game import Game as TiantiGame
from engine.core.game import Option
from engine.registry import game_class, game_names, load_game

PREFIX = "tianti_"
RNG_SEED_PARAMETER = "rng_seed"
MAX_SEATS = 5  # engine.core.interface MAX_GAME_PLAYERS: the bound when an option gives none

# An upper bound on the number of decisions of one game (OpenSpiel's MaxGameLength), per game:
# a function of the options. A tianti Game may also declare its own `max_game_length`, which
# wins. These bounds are generous on purpose (random play of 2000 games of Dragon reaches at
# most 112 decisions with 2 players and 265 with 5, i.e. about 55 a seat): a seat's decisions
# in Dragon are its draft picks, 12 action cards, 12 person cards and their placements, one per
# floor built, one per person released, and a handful for the super events, well under 200.
_MAX_GAME_LENGTH: dict[str, Callable[[dict[str, Any]], int]] = {
    "dragon": lambda options: 200 * int(options["players"]),
    "fusion": lambda options: 2,
}
# For a game the table does not know: far more decisions than any tianti game takes.
_DEFAULT_MAX_GAME_LENGTH_PER_SEAT = 1000

# Registered tianti games that could not be made OpenSpiel games, with the reason.
UNAVAILABLE: dict[str, str] = {}
# tianti name -> the TiantiGameWrapper subclass registered for it.
_WRAPPER_CLASSES: dict[str, type] = {}


def short_name(tianti_name: str) -> str:
    """The OpenSpiel short name of a tianti game: "mount-tai" -> "tianti_mount_tai"."""
    return PREFIX + tianti_name.replace("-", "_")


def _unset_value(option: Option) -> Any:
    """The OpenSpiel parameter value that stands for "unset" (None) for an option whose default
    is None, since an OpenSpiel parameter always has a value of one fixed type:

    - a string option: "" (an empty value in a game string is a string);
    - an int or float option: -1, provided -1 is not an allowed value of the option;
    - a bool option (unset / false / true): an int parameter, -1 / 0 / 1.
    """
    if option.kind is str:
        return ""
    if option.kind is bool:
        return -1
    if option.kind in (int, float):
        sentinel = option.kind(-1)
        try:
            option.validate(sentinel)
        except ValueError:
            return sentinel
        raise TypeError(f"option {option.name!r} may be unset and may be -1: no OpenSpiel "
                        "parameter value is left to mean unset")
    raise TypeError(f"option {option.name!r} has type {option.kind.__name__}, which has no "
                    "OpenSpiel parameter type")


def parameter_specification(cls: type[TiantiGame]) -> dict[str, Any]:
    """The OpenSpiel parameters (name -> default) of a tianti game class: its options under the
    same names (see `_unset_value` for those that may be unset), and `rng_seed`."""
    spec: dict[str, Any] = {}
    for option in cls.OPTIONS:
        if option.default is None:
            spec[option.name] = _unset_value(option)
        elif option.kind in (bool, int, float, str):
            spec[option.name] = option.default
        else:
            raise TypeError(
                f"option {option.name!r} of {cls.NAME} has type {option.kind.__name__}, "
                "which has no OpenSpiel parameter type"
            )
    if RNG_SEED_PARAMETER in spec:
        raise ValueError(f"{cls.NAME} has an option named {RNG_SEED_PARAMETER!r}, "
                         "which the OpenSpiel wrapper uses for itself")
    spec[RNG_SEED_PARAMETER] = -1
    return spec


def tianti_options(cls: type[TiantiGame], params: dict[str, Any]) -> dict[str, Any]:
    """The tianti options for OpenSpiel parameters (the inverse of `parameter_specification`);
    the tianti game validates the values."""
    options: dict[str, Any] = {}
    for option in cls.OPTIONS:
        if option.name not in params:
            continue
        value = params[option.name]
        if option.default is None:
            if value == _unset_value(option) and not isinstance(value, bool):
                value = None
            elif option.kind is bool:
                if value not in (0, 1) or isinstance(value, bool):
                    raise ValueError(f"parameter {option.name!r} is -1 (unset), 0 (false) or "
                                     f"1 (true), got {value!r}")
                value = bool(value)
        options[option.name] = value
    return options


def parameters(cls: type[TiantiGame], options: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters for tianti options (None = unset), e.g. to pass to
    `pyspiel.load_game(short_name, parameters(...))`."""
    params: dict[str, Any] = {}
    for option in cls.OPTIONS:
        if option.name not in options:
            continue
        value = options[option.name]
        if option.default is None:
            if value is None:
                value = _unset_value(option)
            elif option.kind is bool and isinstance(value, bool):
                value = int(value)
        params[option.name] = value
    return params


def _seat_range(cls: type[TiantiGame]) -> tuple[int, int]:
    """The smallest and largest seat counts the game's `players` option allows."""
    for option in cls.OPTIONS:
        if option.name == "players":
            if option.choices:
                return min(option.choices), max(option.choices)
            return 1, MAX_SEATS
    return 1, MAX_SEATS


def max_game_length(game: TiantiGame) -> int:
    """An upper bound on the decisions of one game of `game` (see `_MAX_GAME_LENGTH`)."""
    own = getattr(game, "max_game_length", None)
    if own is not None:
        return int(own() if callable(own) else own)
    bound = _MAX_GAME_LENGTH.get(game.name)
    if bound is not None:
        return bound(game.options)
    return _DEFAULT_MAX_GAME_LENGTH_PER_SEAT * game.num_players


def _game_type(tianti_name: str, cls: type[TiantiGame]) -> "pyspiel.GameType":
    low, high = _seat_range(cls)
    return pyspiel.GameType(
        short_name=short_name(tianti_name),
        long_name=f"tianti: {cls.TITLE or cls.NAME}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=parameter_specification(cls),
    )


def seed_from(sampler: Any) -> int:
    """A 64-bit seed from what OpenSpiel hands a resampler: a probability sampler (a callable
    returning floats in [0, 1), such as `pyspiel.UniformProbabilitySampler`), or an int seed,
    or None (a seed from the operating system)."""
    if sampler is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(sampler, int) and not isinstance(sampler, bool):
        return sampler % (1 << 64)
    if callable(sampler):
        high = int(sampler() * (1 << 32)) & 0xFFFFFFFF
        low = int(sampler() * (1 << 32)) & 0xFFFFFFFF
        return (high << 32) | low
    raise TypeError(f"expected a probability sampler, an int seed or None, got {sampler!r}")


class _Box:
    """The Python side of an OpenSpiel state: the wrapped tianti state and its cached
    information-state strings. OpenSpiel clones a Python state by deep-copying its attributes
    and serializes it by pickling them, so a box deep-copies as a C-level copy of the tianti
    state (the strings, immutable, are shared) and pickles as that state (its game record).

    A new game's box holds no state yet, only the game to deal it from (`pending`): the deal is
    drawn on first use, or when the box is copied, so that both copies hold the same game."""

    __slots__ = ("_state", "keys", "pending")

    def __init__(self, state: Any, keys: dict[int, str] | None = None,
                 pending: "TiantiGameWrapper | None" = None) -> None:
        self._state = state
        self.keys: dict[int, str] = {} if keys is None else keys  # player -> string
        self.pending = pending

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = self.pending._draw_initial_state()
            self.pending = None
        return self._state

    def __deepcopy__(self, memo: dict) -> "_Box":
        return _Box(self.state.clone(), dict(self.keys))

    def __reduce__(self) -> tuple:
        return (_Box, (self.state,))


class TiantiGameWrapper(pyspiel.Game):
    """An OpenSpiel game around a tianti game with fixed options. `register_games` makes one
    subclass per tianti game (setting TIANTI_NAME and GAME_TYPE) and registers that class, as
    OpenSpiel's own Python games register theirs. (A class rather than a closure: OpenSpiel's
    registry outlives the interpreter, and releasing a last reference to a Python function
    after it has shut down aborts the process at exit.)"""

    TIANTI_NAME: str = ""
    GAME_TYPE: "pyspiel.GameType"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        tianti_name, game_type = self.TIANTI_NAME, self.GAME_TYPE
        cls = game_class(tianti_name)
        params = dict(params or {})
        self.tianti_game: TiantiGame = load_game(tianti_name, **tianti_options(cls, params))
        seed = int(params.get(RNG_SEED_PARAMETER, -1))
        self._rng = random.Random(seed if seed >= 0 else os.urandom(16))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.tianti_game.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=self.tianti_game.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_game_length(self.tianti_game),
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> "TiantiStateWrapper":
        """A new game, dealt with the next seed of the game's RNG (`rng_seed`). The deal is
        drawn when the state is first used, so that OpenSpiel's clones (which start from a new
        initial state and overwrite it) do not consume the game's seeds."""
        return TiantiStateWrapper(self)

    def _draw_initial_state(self) -> Any:
        return self.tianti_game.new_initial_state(self._rng.getrandbits(64))

    def new_initial_state_from_seed(self, seed: int) -> "TiantiStateWrapper":
        """The initial state of the tianti game with this seed (the same deal as
        `tianti_game.new_initial_state(seed)`)."""
        return TiantiStateWrapper(self, self.tianti_game.new_initial_state(seed))

    def wrap(self, tianti_state: Any) -> "TiantiStateWrapper":
        """An OpenSpiel state equal to `tianti_state` (a state of this game), its OpenSpiel
        history filled in by replaying the state's record, determinizations included.

        A view (`resample_from_infostate`) has no record of the true game to replay: its wrapper
        holds a copy of the view, and its OpenSpiel history is the view's public actions (the
        players in `full_history()` are then not known and given as the view's seat)."""
        record = tianti_state.to_record()
        if record["game"] != self.tianti_game.name or record["options"] != self.tianti_game.options:
            raise ValueError(f"the state belongs to {record['game']} with {record['options']}, "
                             f"not to this game ({self.tianti_game!r})")
        if tianti_state.is_view():
            state = TiantiStateWrapper(self, tianti_state.clone())
            state._passthrough = tianti_state.viewer
            try:
                for action in record["actions"]:
                    state.apply_action(action)
            finally:
                state._passthrough = None
            return state
        state = TiantiStateWrapper(self, self.tianti_game.new_initial_state(record["seed"]))
        pending = sorted(record.get("resamples", []))
        actions = record["actions"]
        for i in range(len(actions) + 1):
            while pending and pending[0][0] == i:
                _, player, seed = pending.pop(0)
                state._set_tianti_state(state.tianti_state.resample_from_infostate(player, seed))
            if i < len(actions):
                state.apply_action(actions[i])
        if state.tianti_state != tianti_state:
            raise ValueError("the state's game record does not replay to the state itself")
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "InfoStateObserver":
        """The observer behind `information_state_string` (the only observation provided)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None or not (
            iig_obs_type.perfect_recall and iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "tianti games provide only information states (perfect recall, public and the "
                f"player's own private information), not {iig_obs_type}"
            )
        return InfoStateObserver()


class TiantiStateWrapper(pyspiel.State):
    """An OpenSpiel state around a tianti state (`tianti_state`)."""

    def __init__(self, game: TiantiGameWrapper, tianti_state: Any = None) -> None:
        super().__init__(game)
        # No state given: a new deal from the game, drawn on first use.
        self._box = _Box(tianti_state, pending=None if tianti_state is not None else game)

    @property
    def tianti_state(self) -> Any:
        """The wrapped tianti state (changing it changes this state)."""
        return self._box.state

    def _set_tianti_state(self, state: Any) -> None:
        self._box = _Box(state)

    # -- the OpenSpiel Python game API -----------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or pyspiel.PlayerId.TERMINAL (tianti's TERMINAL is the same -4)."""
        if self._passthrough is not None:
            return self._passthrough
        return self.tianti_state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.tianti_state.legal_actions()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of `player` (default: the player to move; [] for another seat).
        The same as OpenSpiel's own, which reaches `_legal_actions` through four calls back
        into Python: answered here directly, it is several times faster for Python callers
        such as OpenSpiel's ISMCTS and its random rollouts."""
        state = self.tianti_state
        if player is not None and player != state.current_player():
            if player < 0 and player != pyspiel.PlayerId.TERMINAL:
                raise ValueError(f"legal_actions of pseudo-player {player}")
            return []
        return state.legal_actions()

    # While `wrap` fills in a view's history: the seat reported as the mover (None otherwise).
    _passthrough: int | None = None

    def _apply_action(self, action: int) -> None:
        if self._passthrough is not None:
            return
        box = self._box
        self.tianti_state.apply_action(int(action))
        if box.keys:
            box.keys = {}

    def _action_to_string(self, player: int, action: int) -> str:
        return self.tianti_state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.tianti_state.is_terminal()

    def returns(self) -> list[float]:
        return self.tianti_state.returns()

    def __str__(self) -> str:
        return str(self.tianti_state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None
                                ) -> "TiantiStateWrapper":
        """A determinization from `player_id`'s point of view (tianti's
        `resample_from_infostate`, seeded from the sampler: a `pyspiel` probability sampler, an
        int seed, or None), with this state's OpenSpiel history."""
        resampled = self.tianti_state.resample_from_infostate(
            player_id, seed_from(probability_sampler))
        other = self.clone()
        other._set_tianti_state(resampled)
        return other

    def information_state_key(self, player: int) -> str:
        """The tianti game's information-state string of `player` and the action history (see
        the module's docstring), cached until the next action: what
        `information_state_string` returns, through the observer."""
        keys = self._box.keys
        key = keys.get(player)
        if key is None:
            state = self.tianti_state
            key = keys[player] = (state.information_state_string(player) + "\nactions: "
                                  + " ".join(map(str, state.history())))
        return key


class InfoStateObserver:
    """The py observer of information states: strings only (no tensor)."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: TiantiStateWrapper, player: int) -> None:
        """There is no tensor to fill."""

    def string_from(self, state: TiantiStateWrapper, player: int) -> str:
        return state.information_state_key(player)


def register_games() -> dict[str, str]:
    """Register every tianti game (not yet registered) with OpenSpiel; returns tianti name ->
    OpenSpiel short name of the games registered. A game that cannot be wrapped is left out,
    with the reason in `UNAVAILABLE` and a warning."""
    registered = set(pyspiel.registered_names())
    done: dict[str, str] = {}
    for name in game_names():
        short = short_name(name)
        if short in registered:
            done[name] = short
            continue
        try:
            cls = game_class(name)
            game_type = _game_type(name, cls)
        except Exception as e:  # a game being built may not import yet: keep the others
            UNAVAILABLE[name] = f"{type(e).__name__}: {e}"
            warnings.warn(f"tianti game {name!r} is not available in OpenSpiel: {e}",
                          stacklevel=2)
            continue

        wrapper = type(f"Tianti{''.join(p.title() for p in name.split('-'))}Game",
                       (TiantiGameWrapper,), {"TIANTI_NAME": name, "GAME_TYPE": game_type,
                                              "__module__": __name__})
        _WRAPPER_CLASSES[name] = wrapper
        pyspiel.register_game(game_type, wrapper)
        UNAVAILABLE.pop(name, None)
        done[name] = short
    return done


def load(tianti_name: str, **options: Any) -> TiantiGameWrapper:
    """The OpenSpiel game of a tianti game: `load("dragon", players=3, rng_seed=7)`."""
    if tianti_name not in GAMES:
        GAMES.update(register_games())
    if tianti_name not in GAMES:
        if tianti_name in UNAVAILABLE:
            raise ValueError(f"tianti game {tianti_name!r} is not available in OpenSpiel: "
                             f"{UNAVAILABLE[tianti_name]}")
        raise ValueError(f"unknown tianti game {tianti_name!r}; known: {', '.join(game_names())}")
    cls = game_class(tianti_name)
    known = {o.name for o in cls.OPTIONS} | {RNG_SEED_PARAMETER}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"unknown option{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(map(repr, unknown))} for {tianti_name}; "
                         f"allowed: {', '.join(sorted(known))}")
    params = parameters(cls, options)
    if RNG_SEED_PARAMETER in options:
        params[RNG_SEED_PARAMETER] = int(options[RNG_SEED_PARAMETER])
    return pyspiel.load_game(short_name(tianti_name), params)


GAMES: dict[str, str] = register_games()
