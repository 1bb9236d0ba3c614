//! Zobrist keys (Zobrist 1970): one random 64-bit key per (colour, point), so a
//! position's hash is the XOR of the keys of its stones and changes by one XOR
//! per stone placed or removed.
//!
//! The keys are computed at compile time from a fixed seed with SplitMix64, so
//! hashes (and therefore node counts in searches that use them) are the same on
//! every run and every machine. The other games draw their keys with the same
//! helpers ([`key_table`], [`key_tables`]), each from its own seed.

use super::board::NUM_POINTS;

/// One step of SplitMix64 (Steele, Lea & Flood 2014): the next state and
/// its output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `N` keys drawn from SplitMix64 starting at `state`, and the state after
/// them.
const fn fill<const N: usize>(mut state: u64) -> ([u64; N], u64) {
    let mut keys = [0u64; N];
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix64(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    (keys, state)
}

/// A table of `N` Zobrist keys from `seed`, computed at compile time: the
/// keys of every game (Domineering's cells) come from here, each game with
/// its own seed.
pub const fn key_table<const N: usize>(seed: u64) -> [u64; N] {
    fill::<N>(seed).0
}

/// Two tables of `N` keys, one per colour, drawn in sequence from `seed`
/// (Go's, NoGo's and m,n,k's stones).
pub const fn key_tables<const N: usize>(seed: u64) -> [[u64; N]; 2] {
    let (black, state) = fill::<N>(seed);
    let (white, _) = fill::<N>(state);
    [black, white]
}

/// `STONE[colour index][point]`.
pub static STONE: [[u64; NUM_POINTS]; 2] = key_tables(0x7E5E_7115);

/// XORed into search keys when white is to move.
pub const WHITE_TO_MOVE: u64 = 0xD1B5_4A32_D192_ED03;

/// XORed (times the point index) into search keys while a ko ban is active.
pub const KO_BASE: u64 = 0x8CB9_2BA7_2F3D_8DD7;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = STONE.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * NUM_POINTS);
    }
}
