"""The replay's dispatch: every event kind has exactly one handler, and broker handlers leave the
state to the dispatch, which applies the evidence transition table in one place."""

from __future__ import annotations

import inspect
import re

from coordinator_core.events import BROKER_KINDS, EVENT_TYPES
from coordinator_core.history import CONSUMER_SIGNS
from coordinator_core.replay.broker import BROKER_HANDLERS, REBALANCE_ENDS
from coordinator_core.replay.client import CLIENT_HANDLERS


def test_every_kind_has_one_handler():
    # the consumer-protocol kinds belong to the KIP-848 model (coordinator_core.history routes them)
    classic = set(EVENT_TYPES) - CONSUMER_SIGNS - {"group_converted"}
    assert set(BROKER_HANDLERS) == set(BROKER_KINDS) & classic
    assert not set(BROKER_HANDLERS) & set(CLIENT_HANDLERS)
    assert set(BROKER_HANDLERS) | set(CLIENT_HANDLERS) == classic
    assert set(REBALANCE_ENDS) <= set(BROKER_HANDLERS)


def test_broker_handlers_do_not_change_the_state():
    for kind, handler in {**BROKER_HANDLERS, **REBALANCE_ENDS}.items():
        src = inspect.getsource(handler)
        assert "_set_state(" not in src and not re.search(r"self\.state\s*=(?!=)", src), kind
