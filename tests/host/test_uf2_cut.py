"""A UF2 file cut short (a copy or download that stopped part way) is
recognised before it is dropped (okgin board --chip --drop): every block
carries its number and the file's block count. What the emulated Pico
then does with it is tests/chip/test_uf2.py's."""
from okgin.chip.images import uf2_cut
from okgin.lib.uf2image import FLASH_BASE, uf2_block


def _file(n, numbers=None):
    numbers = range(n) if numbers is None else numbers
    return b"".join(uf2_block(FLASH_BASE + 256 * i, bytes([i % 256]) * 256, i, n) for i in numbers)


def test_a_whole_file_is_whole():
    assert uf2_cut(_file(40)) is None


def test_a_file_cut_between_or_inside_blocks_is_named_with_what_it_holds():
    whole = _file(40)
    assert uf2_cut(whole[:17 * 512]) == (17, 40)
    assert uf2_cut(whole[:17 * 512 + 300]) == (17, 40)     # half a block more
    assert uf2_cut(whole[:-1]) == (39, 40)


def test_a_block_missing_in_the_middle_is_a_cut_file_too():
    assert uf2_cut(_file(40, [i for i in range(40) if i != 23])) == (39, 40)


def test_what_is_not_uf2_is_left_to_the_uf2_reader():
    assert uf2_cut(b"") is None and uf2_cut(b"not a uf2 file" * 100) is None
