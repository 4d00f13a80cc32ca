"""Rolling in process and rolling through the dice service give identical matches."""
from __future__ import annotations

import grpc
import pytest
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

from services.client.session import signed_in
from services.core.dice_sessions import PoolSpec
from services.core.dicesource import InProcessDice, RemoteDice
from tests.platform.test_match_driver import create, play_to_end
from tests.support.server import ServerThread


@pytest.fixture(scope="module")
def split(redis_url):
    """A dice server, and the other three services in a second server rolling through it."""
    dice = ServerThread(redis_url, names=["dice"])
    dice.start()
    rest = ServerThread(redis_url, names=["board", "combat", "matchmaking"], dice_mode="service",
                        dice_addr=dice.address)
    rest.start()
    yield dice, rest
    rest.stop()
    dice.stop()


def test_both_sources_draw_identical_faces(split):
    dice_server, rest = split
    pools = [PoolSpec("d6", 5, tuple(range(1, 7))), PoolSpec("cast", 3, ("wand", "ward", "both", "blank")),
             PoolSpec("big", 2, tuple(range(1, 101)))]

    async def both():
        sessions = rest.platform.sessions
        info = await sessions.create("", owned_by_match=True)
        rec = await rest.platform.store.load(info.session_id)
        channel = grpc.aio.insecure_channel(dice_server.address)
        remote = await RemoteDice(channel).draw(info.session_id, info.token, rec, 0, pools)
        local = await InProcessDice(sessions).draw(info.session_id, info.token, rec, 0, pools)
        await channel.close()
        return remote, local

    remote, local = rest.run(both())
    assert remote == local
    assert remote[1] == [[0, 1, 2, 3, 4], [5, 6, 7], [8, 9]]


def test_a_match_rolled_by_the_dice_service_verifies(split):
    _, rest = split
    channel = signed_in(grpc.insecure_channel(rest.address))
    m, clients = create(channel, seats=2, variant="secret-start")
    play_to_end(clients)
    verdict = dice_pb2_grpc.DiceStub(grpc.insecure_channel(split[0].address)).Verify(
        dice_pb2.VerifyRequest(session_id=m.match_id))
    assert verdict.ok, list(verdict.problems)
    assert verdict.rolls_checked >= 4


def test_an_action_with_several_chance_steps_rolls_through_the_dice_service(split):
    """Creating a Tower match takes three chance steps before one commit; all through the service."""
    from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

    from tests.support.clients import ScriptedClient

    dice_server, rest = split
    channel = signed_in(grpc.insecure_channel(rest.address))
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game="tower", seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(2)]))
    clients = [ScriptedClient(channel, m.match_id, t.token, seed=i) for i, t in enumerate(m.seat_tokens)]
    import threading

    other = threading.Thread(target=clients[1].play_until_over, args=(1,), daemon=True)
    other.start()
    clients[0].play_until_over(seat=0)
    other.join(30)
    verdict = dice_pb2_grpc.DiceStub(grpc.insecure_channel(dice_server.address)).Verify(
        dice_pb2.VerifyRequest(session_id=m.match_id))
    assert verdict.ok, list(verdict.problems)
