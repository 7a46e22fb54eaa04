"""The value tables written out in engine/cards.py match R2."""
from okgin.engine.cards import _VLO, _VHI, RANK_VALUE, card_str, parse_card


def test_R2_suit_mask_value_tables_match_rank_values():
    for m in range(1 << 13):
        assert _VLO[m & 127] + _VHI[m >> 7] == sum(RANK_VALUE[r] for r in range(13) if (m >> r) & 1)
    assert len(_VLO) == 128 and len(_VHI) == 64


def test_R14_every_card_round_trips_through_text():
    for c in range(52):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_str(c).lower()) == parse_card(card_str(c).upper()) == c
    assert card_str(0) == "Ac" and card_str(51) == "Ks" and card_str(22) == "Td"
