"""The consumer-protocol replay's group condition read inline (coordinator_core/consumer/model.py
``condition``) equals the plain rule (``condition_plain``: ``group_condition`` over the members'
``is_reconciled_to``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from coordinator_core.consumer.model import (
    ConsumerGroupMember,
    ConsumerGroupModel,
    condition,
    condition_plain,
)

EPOCHS = st.one_of(st.none(), st.integers(-2, 4))
MEMBERS = st.lists(
    st.tuples(st.sampled_from(["STABLE", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS", None]), EPOCHS),
    max_size=4,
)


@settings(max_examples=300, deadline=None)
@given(group_epoch=EPOCHS, target=EPOCHS, members=MEMBERS)
def test_condition_equals_the_plain_rule(group_epoch, target, members) -> None:
    g = ConsumerGroupModel("g", group_epoch=group_epoch, target_assignment_epoch=target)
    for i, (state, epoch) in enumerate(members):
        g.members[f"m{i}"] = ConsumerGroupMember(f"m{i}", state=state, member_epoch=epoch)
    assert condition(g) == condition_plain(g)
