"""The game store's one schema: every table in one MetaData, migrated by Alembic (``migrations/``).
Imported from here, each table: the daily deal's and the puzzles' are defined in
``schema_daily_puzzles`` and named here too, so this module is the whole schema.

A game is its row in ``games`` (who plays, its state, its result) and its rows in ``game_log``,
one per entry of its record: each hand's deal (JSON, the hand's first row) and then each action
in record notation, numbered from 1 across the game. A game's ``version`` is the number of its
log rows, so a process catching up reads only the rows after its own version, and a change
made from an out-of-date version writes nothing (compare-and-set).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from okgin.server.store import schema_daily_puzzles
from okgin.server.store.metadata import metadata as metadata

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("levels", Text, nullable=False),
    # The record's head: its format, rules and players (JSON); its hands are the log's rows.
    Column("head", Text, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("scores", Text, nullable=True),
    Column("version", Integer, nullable=False),
)

game_log = Table(
    "game_log",
    metadata,
    Column("game", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("hand", Integer, nullable=False),
    # The hand's first row: {"dealer": seat, "deal": {...}}; then one action's notation a row.
    Column("entry", Text, nullable=False),
)

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(40), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("phase", String(16), nullable=False),
    Column("game", String(40), nullable=True, index=True),
    Column("data", Text, nullable=False),
    # An open table (``Room.listed``, also in ``data``): the lists of tables waiting for players
    # and of games being played now read the listed rooms by phase (pages/table_lists.py).
    Column("listed", Boolean, nullable=False, server_default=false()),
    Index("ix_rooms_listed_phase", "listed", "phase"),
)

hand_results = Table(
    "hand_results",
    metadata,
    Column("game", String(40), nullable=False, index=True),
    Column("hand", Integer, nullable=False),
    Column("finished", Float, nullable=False),
    Column("preset", String(40), nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("won_hand", Boolean, nullable=False),
    Column("points", Integer, nullable=False),
    # The person's deadwood (after layoffs) when another seat knocked, else null.
    Column("knocked_against", Integer, nullable=True),
    Column("mistakes", Integer, nullable=True),
    Column("won_game", Boolean, nullable=False),
)

# -- players (okgin/server/players/): who sat where, and the sessions that say who a browser is --

players = Table(
    "players",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    # The display name chosen once (null until then); personal data, removed with the player.
    Column("name", String(40), nullable=True),
    # ``names.name_key(name)``: no two players' chosen names share one (look-alikes refused).
    Column("name_key", String(80), nullable=True, index=True),
    # Play online's "allow computer players written by others (bots)" as last chosen (null: not
    # chosen yet, which Play online's rated tables read as no).
    Column("allow_bots", Boolean, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    # SHA-256 of the cookie's session id: a stolen database does not hold a usable cookie.
    Column("id_hash", String(64), primary_key=True),
    Column("player", String(40), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("csrf", String(64), nullable=False),
    # The browser as it named itself (User-Agent, cut short), to list signed-in devices.
    Column("agent", String(120), nullable=True),
    # When a request last came with this session (kept to the minute: Players.SEEN_EVERY).
    Column("last_seen", Float, nullable=True),
)

accounts = Table(
    "accounts",
    metadata,
    # A player who made an account: a username (folded to lower case) and an argon2id hash.
    Column("player", String(40), primary_key=True),
    Column("username", String(40), nullable=False, unique=True),
    Column("hash", String(200), nullable=False),
    Column("created", Float, nullable=False),
)

sign_in_limits = Table(
    "sign_in_limits",
    metadata,
    # SHA-256 of "account:<username>" or "address:<ip>": failed sign-ins and the next allowed one.
    Column("key", String(64), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("until", Float, nullable=False),
)

game_players = Table(
    "game_players",
    metadata,
    Column("game", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(40), nullable=False, index=True),
)

room_players = Table(
    "room_players",
    metadata,
    # Who took each person's seat of a room: copied to game_players when its games begin.
    Column("room", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(40), nullable=False, index=True),
)

# -- ratings (okgin/server/players/ratings.py): each finished game rated once, by final standing --

rated_games = Table(
    "rated_games",
    metadata,
    # One row per finished game, written in the same transaction as the ratings it moved: the
    # fact that it was rated, so nothing rates it twice. ``family`` null: rated for nobody (a
    # game finished before ratings existed, or with no known person at the table).
    Column("game", String(40), primary_key=True),
    Column("rated", Float, nullable=False),
    Column("family", String(16), nullable=True),
    Column("preset", String(40), nullable=False),
    Column("solo", Boolean, nullable=False),
    Column("seats", Integer, nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    # A player's current rating in one family: openskill's mu and sigma, and its ordinal
    # (mu - 3 sigma), the number shown and ranked on.
    Column("player", String(40), primary_key=True),
    Column("family", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    # floor(ordinal * 10): its row of rating_counts.
    Column("bucket", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_family_ordinal", "family", "ordinal", "player"),
)

rating_counts = Table(
    "rating_counts",
    metadata,
    # How many players of a family have a rating in each tenth (``bucket`` = floor(ordinal * 10)),
    # kept with every rating written: a place is the sum of the buckets above and a short count
    # within its own, not a count over every player below the top.
    Column("family", String(16), primary_key=True),
    Column("bucket", Integer, primary_key=True),
    Column("players", Integer, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    # A rated game as one player saw it: their place, and their rating after it.
    Column("player", String(40), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("family", String(16), nullable=False),
    Column("rated", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("weight", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Index("ix_rating_history_player_rated", "player", "rated"),
)

# -- passkeys and public games (okgin/server/players/passkeys.py, sharing.py) --

passkeys = Table(
    "passkeys",
    metadata,
    # A WebAuthn credential of an account (docs/players.md): its id and COSE public key
    # (base64url), the authenticator's sign count, the name its owner gave it.
    Column("id", String(1400), primary_key=True),
    Column("player", String(40), nullable=False, index=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("name", String(60), nullable=False),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=True),
)

passkey_challenges = Table(
    "passkey_challenges",
    metadata,
    # A session's one live challenge per purpose ("register" or "sign-in"): used once, expires.
    Column("session", String(64), primary_key=True),
    Column("purpose", String(16), primary_key=True),
    Column("challenge", String(100), nullable=False),
    Column("rp_id", String(255), nullable=False),
    Column("expires", Float, nullable=False),
)

public_games = Table(
    "public_games",
    metadata,
    # A seat whose player said yes to making the game public (no player named: a seat).
    Column("game", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
)

# -- play chips (store/chips.py): a wallet per player, each game's pool, the ledger of every move --

chip_wallets = Table(
    "chip_wallets",
    metadata,
    Column("player", String(40), primary_key=True),
    Column("balance", Integer, nullable=False),
    # The UTC day (YYYY-MM-DD) of the player's last daily grant ("" before the first).
    Column("granted", String(10), nullable=False),
    CheckConstraint("balance >= 0", name="ck_chip_wallets_balance"),
)

chip_pools = Table(
    "chip_pools",
    metadata,
    # One row per staked game: the chips held from its seats until it is paid out or refunded
    # (``chips.take_pool`` makes one for any id, e.g. a tournament's entry fees, and its source).
    Column("game", String(40), primary_key=True),
    Column("room", String(40), nullable=False),
    Column("stake", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("status", String(10), nullable=False),  # held, paid or refunded
    Column("created", Float, nullable=False),
    Column("settled", Float, nullable=True),
    CheckConstraint("stake > 0 AND total >= 0", name="ck_chip_pools_amounts"),
)

chip_ledger = Table(
    "chip_ledger",
    metadata,
    # Append-only: every movement of a player's chips, signed (a stake is negative).
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(40), nullable=False, index=True),
    Column("at", Float, nullable=False),
    Column("kind", String(8), nullable=False),  # grant, stake, payout or refund
    Column("amount", Integer, nullable=False),
    Column("balance", Integer, nullable=False),  # the player's balance after it
    Column("game", String(40), nullable=True),
    Column("seat", Integer, nullable=True),
    # A game's seat stakes once, is paid once and refunded once (grants have no game).
    UniqueConstraint("game", "seat", "kind", name="uq_chip_ledger_move"),
)

# -- tournaments (okgin/server/tournaments/): an event over rooms, every step stored --------

tournaments = Table(
    "tournaments",
    metadata,
    Column("code", String(40), primary_key=True),
    # Grows by one with every change of status or round (compare-and-set: one process advances).
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("host", String(40), nullable=False),
    # Its name, as its host gave it (or "Ann's Swiss"): at most 40 characters (migration 0010).
    Column("name", String(60), nullable=False, server_default=""),
    # Its settings (format, table size, rules, rounds, places, levels, start when full): JSON.
    Column("data", Text, nullable=False),
    Column("round", Integer, nullable=False),
    # The process running its tables now, until ``lease`` (Unix time): another takes over after.
    Column("driver", String(64), nullable=True),
    Column("lease", Float, nullable=True),
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament", String(40), primary_key=True),
    Column("seed", Integer, primary_key=True),
    # A person (their player id) or a computer player (its level): one of the two.
    Column("player", String(40), nullable=True, index=True),
    Column("level", String(16), nullable=True),
    Column("name", String(40), nullable=False),
)

tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column("tournament", String(40), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("byes", Text, nullable=False),
    Column("started", Float, nullable=False),
)

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament", String(40), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("room", String(40), nullable=False, unique=True),
    # The entrants' seeds in seat order (JSON).
    Column("seats", Text, nullable=False),
    # The finished match, from its stored game: seeds from first place to last, their final
    # scores and penalty points in the same order (JSON), and the game's id.
    Column("result", Text, nullable=True),
    Column("game", String(40), nullable=True),
    Column("finished", Float, nullable=True),
)

pool_seekers = Table(
    "pool_seekers",
    metadata,
    # Play online's pool where no broker is configured (with one, it lives in Redis): a player
    # waiting to be paired, claimed by one process's pairing (compare-and-set on ``state``), then
    # seated at a room (okgin/server/pool, docs/server/pool.md).
    Column("id", String(40), primary_key=True),
    Column("player", String(40), nullable=False, index=True),
    Column("name", String(40), nullable=False),
    Column("preset", String(40), nullable=False),
    Column("seats", Integer, nullable=False),
    # The shown rating in the family of ``seats`` when the player joined.
    Column("rating", Integer, nullable=False),
    Column("joined", Float, nullable=False),
    # Until when the seeker's page is known to be there (each look renews it).
    Column("lease", Float, nullable=False),
    # waiting, claimed (by the pairing that names its room in ``claim``) or seated.
    Column("state", String(16), nullable=False, index=True),
    Column("claim", String(40), nullable=True),
    Column("claim_until", Float, nullable=True),
    Column("room", String(40), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("changed", Float, nullable=False),
    # A bot account seeking through the API (docs/api.md), and a person who allows bot opponents:
    # a bot is seated only with people who allow bots (``pool.window.bots_agree``).
    Column("bot", Boolean, nullable=False, server_default=false()),
    Column("bots", Boolean, nullable=False, server_default=false()),
)

# -- computer players written by others (okgin/server/players/bots.py, api_tokens.py; docs/api.md) --

bot_accounts = Table(
    "bot_accounts",
    metadata,
    # An account made a bot account (for ever): marked BOT, rated in its own pool, never on
    # the leaderboard among people, played through the API with a personal token.
    Column("player", String(40), primary_key=True),
    Column("created", Float, nullable=False),
)

api_tokens = Table(
    "api_tokens",
    metadata,
    # SHA-256 of a personal API token (shown to its owner once): the rows alone are no token.
    Column("id_hash", String(64), primary_key=True),
    Column("player", String(40), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=True),
)

challenges = Table(
    "challenges",
    metadata,
    # A person's challenge to a bot account: pending until the bot accepts (a room is made, its
    # code kept here) or declines; a pending one runs out after ``bots.CHALLENGE_LIFE`` seconds.
    Column("id", String(40), primary_key=True),
    Column("challenger_player", String(40), nullable=False, index=True),
    Column("bot_player", String(40), nullable=False, index=True),
    # The rules' record form (a preset and its target), as JSON.
    Column("rules", Text, nullable=False),
    Column("status", String(16), nullable=False),  # pending, accepted, declined
    Column("room", String(40), nullable=True),
    Column("created", Float, nullable=False),
)

# -- fair play in Play online's pool (okgin/server/players/blocks.py; docs/play-online.md) --

player_blocks = Table(
    "player_blocks",
    metadata,
    # ``blocker`` will not be seated by the pool with ``blocked`` (nor ``blocked`` with them).
    Column("blocker", String(40), primary_key=True),
    Column("blocked", String(40), primary_key=True, index=True),
    Column("created", Float, nullable=False),
)

abandonments = Table(
    "abandonments",
    metadata,
    # ``player`` abandoned rated ``game`` (Play online's table) at ``seat``: a computer player
    # played their seat when it ended. Rated as a loss; recent ones make the next seek wait.
    Column("game", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(40), nullable=False, index=True),
    Column("created", Float, nullable=False),
)

# -- moderation (okgin/server/players/reports.py, moderation.py; docs/moderation.md) --

player_reports = Table(
    "player_reports",
    metadata,
    # ``reporter`` reports ``reported``, met at ``seat`` of ``game``, for ``reason`` (name,
    # phrases, abandonment, other) with an optional ``text``; ``handled`` once the operator has.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", String(40), nullable=False, index=True),
    Column("reported", String(40), nullable=False, index=True),
    Column("game", String(40), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("reason", String(16), nullable=False),
    Column("text", String(300), nullable=False),
    Column("created", Float, nullable=False),
    Column("handled", Float, nullable=True),
)

player_bans = Table(
    "player_bans",
    metadata,
    # ``player`` may not seek in Play online, join a tournament or be on the leaderboard.
    Column("player", String(40), primary_key=True),
    Column("reason", String(300), nullable=False),
    Column("created", Float, nullable=False),
)

moderation_audit = Table(
    "moderation_audit",
    metadata,
    # Every `okgin admin` action: what (ban, unban, rename, handled), to whom, why and when.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("action", String(16), nullable=False),
    Column("player", String(40), nullable=False, index=True),
    Column("detail", String(300), nullable=False),
    Column("why", String(300), nullable=False),
    Column("created", Float, nullable=False),
)

# -- the daily deal's and the puzzles' tables, defined in schema_daily_puzzles --

daily_secrets = schema_daily_puzzles.daily_secrets
daily_attempts = schema_daily_puzzles.daily_attempts
puzzles = schema_daily_puzzles.puzzles
puzzle_ratings = schema_daily_puzzles.puzzle_ratings
puzzle_attempts = schema_daily_puzzles.puzzle_attempts
puzzle_mined = schema_daily_puzzles.puzzle_mined
