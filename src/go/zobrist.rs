//! Zobrist keys (Zobrist 1970): one random 64-bit key per (colour, point), so a
//! position's hash is the XOR of the keys of its stones and changes by one XOR
//! per stone placed or removed.
//!
//! The keys are computed at compile time from a fixed seed with SplitMix64, so
//! hashes (and therefore node counts in searches that use them) are the same on
//! every run and every machine.

use super::board::NUM_POINTS;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; NUM_POINTS]; 2] {
    let mut keys = [[0u64; NUM_POINTS]; 2];
    let mut state = 0x7E5E_7115_u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < NUM_POINTS {
            let (s, k) = splitmix64(state);
            state = s;
            keys[c][p] = k;
            p += 1;
        }
        c += 1;
    }
    keys
}

/// `STONE[colour index][point]`.
pub static STONE: [[u64; NUM_POINTS]; 2] = make_keys();

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
