"""Refusals of another engine's moves made clearer: what the engine's own words leave out.

The engine refuses a move with the words of the guard that failed, which see the state
and the last action only. Refereeing another engine's records (issue 41) found three
refusals those words misattribute or leave unclear; here they are completed from the
game's history, for ``replay`` (so ``conform``) and the live referee alike:

- a move out of turn after a catch that its victim's accept or challenge followed: the
  catch is named first among the causes (UNO-1), as it is when the catch came last;
- a catch refused because only the catcher can be caught: says the catcher is that player;
- a late UNO: says when the window to say it closed.

They read the state before the refused move and change only the error's words and
causes. (Their natural home is the engine's refusals, ``Game._aside`` and the UNO-1
commands' words, which are being refactored; they move there once it lands.)
"""

from __future__ import annotations

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError, UnoError

_ANSWERS = (ActionType.ACCEPT, ActionType.CHALLENGE)
_ASIDES = (ActionType.CATCH, ActionType.UNO, ActionType.ADVISE)


def explain(game: Game, action: Action, err: UnoError) -> None:
    """Complete ``err``, the refusal of ``action`` in ``game`` (the state before it)."""
    if not isinstance(err, IllegalActionError):
        return  # malformed input: nothing of the game's history explains it
    for clarify in (_catch_then_answer, _catcher_is_the_one, _late_uno):
        if clarify(game, action, err):
            return


def _catch_then_answer(game: Game, action: Action, err: UnoError) -> bool:
    """PLAY-1 after ``catch``, then the victim's answers to a draw card: UNO-1 first."""
    uno = game.rules.uno.id
    if err.rule_id != "PLAY-1" or uno in err.causes:
        return False
    history = game.history
    i = len(history)
    while i and history[i - 1].type in _ANSWERS:
        i -= 1
    if i == len(history) or not i or history[i - 1].type is not ActionType.CATCH:
        return False
    catch, answer = history[i - 1], history[i]
    aside = (f"{catch.player}'s catch of {catch.target} ({uno}), before {answer.player}'s "
             f"{answer.type.value}, did not change whose turn it is")
    head = f"{action.player} is not to move: "
    at = err.message.find(head)
    if at < 0:
        err.message = f"{err.message}; {aside}"
    else:
        cut = at + len(head)
        err.message = f"{err.message[:cut]}{aside}; {err.message[cut:]}"
    err.causes = (uno, *err.causes)
    return True


def _catcher_is_the_one(game: Game, action: Action, err: UnoError) -> bool:
    """"only P1 can" where P1 is the catcher: say that the one to catch is the catcher."""
    window = game.uno_window
    if action.type is not ActionType.CATCH or window is None or \
            game.names[window] != action.player:
        return False
    old = f"only {action.player} can, who played"
    if old not in err.message:
        return False
    err.message = err.message.replace(
        old, f"the only player who can be caught is {action.player}, the catcher, who "
        "played", 1)
    return True


def _late_uno(game: Game, action: Action, err: UnoError) -> bool:
    """"has no UNO left to say": say why (the window closed when ..., UNO-1)."""
    uno = game.rules.uno
    if action.type is not ActionType.UNO or err.rule_id != uno.id or \
            not err.message.endswith("has no UNO left to say"):
        return False
    err.message = f"{err.message}: {_why_no_uno(game, action.player)} ({uno.id})"
    return True


def _why_no_uno(game: Game, player: str) -> str:
    """Why ``player``'s UNO window is not open, from the table and the history."""
    uno = game.rules.uno
    if not uno.enabled:
        return "nobody calls UNO in these rules"
    if not uno.say_before_accusation:
        return "in these rules UNO is said with the next-to-last card only"
    history = game.history
    last = next((i for i in range(len(history) - 1, -1, -1)
                 if history[i].player == player and history[i].type is ActionType.PLAY), None)
    if last is None:
        return f"{player} has played no card that leaves them one"
    played = history[last]
    if played.uno:
        return f"{player} said it with their {played.card}"
    for later in history[last + 1:]:
        closed = _closes(later, player)
        if closed is not None:
            return f"{closed}, after {player}'s {played.card}"
    return f"{player}'s {played.card} did not leave them their last card"


def _closes(later: Action, player: str) -> str | None:
    """How ``later`` closed ``player``'s window, in words (None: it did not)."""
    if later.type is ActionType.UNO and later.player == player:
        return f"{player} said it already"
    if later.type is ActionType.CATCH and later.target == player:
        return f"{later.player} caught {player} already"
    if later.player != player and later.type not in _ASIDES:
        return f"the window to say it closed when {later.player}'s turn began ({later})"
    if later.player == player and later.type is ActionType.DRAW:
        return f"the window to say it closed when {player} drew again"
    return None
