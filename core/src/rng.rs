//! A small, fast, seedable random generator (SplitMix64) that gives the same sequence on
//! every platform, so that a seed reproduces a playout natively, in wasm and in every engine.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-and-reject. `n == 1`
    /// draws nothing: a forced choice leaves the sequence as it was.
    #[inline(always)]
    pub fn below(&mut self, n: usize) -> usize {
        if n == 1 {
            return 0;
        }
        let n = n as u64;
        let (mut high, mut low) = mul_wide(self.next_u64(), n);
        // The division only when the low half is small enough to be biased (rarely).
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                (high, low) = mul_wide(self.next_u64(), n);
            }
        }
        high as usize
    }
}

/// The 128-bit product of `a` and `b` as (high, low) halves.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    let m = u128::from(a) * u128::from(b);
    ((m >> 64) as u64, m as u64)
}

#[cfg(target_arch = "wasm32")]
use mul_wide_by_halves as mul_wide;

/// `mul_wide` from 32-bit halves: wasm has no 64×64→128 multiplication, and its 128-bit
/// arithmetic is a library call.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(always)]
fn mul_wide_by_halves(a: u64, b: u64) -> (u64, u64) {
    let (a1, a0, b1, b0) = (a >> 32, a & 0xFFFF_FFFF, b >> 32, b & 0xFFFF_FFFF);
    let (low, middle1, middle2, high) = (a0 * b0, a1 * b0, a0 * b1, a1 * b1);
    let carry = ((low >> 32) + (middle1 & 0xFFFF_FFFF) + (middle2 & 0xFFFF_FFFF)) >> 32;
    (high + (middle1 >> 32) + (middle2 >> 32) + carry, a.wrapping_mul(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for n in 1..200 {
            let x = a.below(n);
            assert_eq!(x, b.below(n));
            assert!(x < n);
        }
        // The fast path draws what plain multiply-and-reject draws, also where rejection bites.
        let (mut fast, mut plain) = (Rng::new(11), Rng::new(11));
        for n in (2..100).chain([3 << 62, (1 << 63) + 1, u64::MAX - 1].map(|n| n as usize)) {
            for _ in 0..50 {
                let threshold = (n as u64).wrapping_neg() % n as u64;
                let expected = loop {
                    let m = (plain.next_u64() as u128) * (n as u128);
                    if (m as u64) >= threshold {
                        break (m >> 64) as usize;
                    }
                };
                assert_eq!(fast.below(n), expected, "n = {n}");
            }
        }
        let mut r = Rng::new(5);
        for (a, b) in [(u64::MAX, u64::MAX), (0, 7), (1 << 63, 3)]
            .into_iter()
            .chain((0..1000).map(|_| (r.next_u64(), r.next_u64())))
        {
            let m = u128::from(a) * u128::from(b);
            assert_eq!(mul_wide_by_halves(a, b), ((m >> 64) as u64, m as u64), "{a} * {b}");
        }
        let mut forced = Rng::new(11);
        assert_eq!(forced.below(1), 0);
        assert_eq!(forced.next_u64(), Rng::new(11).next_u64());
        // Pinned: the sequence must not change between versions (traces depend on it).
        assert_eq!(Rng::new(1).next_u64(), 0x910a2dec89025cc1);
    }
}
