//! Fixed-width signed integers for exact lexicographic matching weights.
//!
//! `Wide<N>` is an `64 * N`-bit **two's complement signed** integer stored as
//! `N` little-endian `u64` limbs (`limbs[0]` is least significant). `Wide<2>`
//! behaves exactly like `i128`. Signedness matters for the matching: weights
//! `<= 0` mean "no edge", and slacks are differences of sums.
//!
//! Operators (`+`, `-`, unary `-`, `<<`) panic on overflow, like the primitive
//! integers in debug builds; use the `checked_*` methods when overflow is a
//! possibility. The weighted engine uses the wrapping forms for speed, behind a
//! headroom check on every weight (`DenseWeight::fits_headroom`).

use core::cmp::Ordering;
use core::fmt;
use core::ops::{Add, AddAssign, Neg, Shl, ShlAssign, Sub, SubAssign};

/// A `64 * N`-bit two's complement signed integer (little-endian limbs).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    /// Number of bits.
    pub const BITS: u32 = 64 * N as u32;
    /// Zero.
    pub const ZERO: Self = Wide([0; N]);
    /// One.
    pub const ONE: Self = Self::from_u64(1);
    /// Largest value, `2^(BITS-1) - 1`.
    pub const MAX: Self = {
        let mut l = [u64::MAX; N];
        if N > 0 {
            l[N - 1] = u64::MAX >> 1;
        }
        Wide(l)
    };
    /// Smallest value, `-2^(BITS-1)`.
    pub const MIN: Self = {
        let mut l = [0; N];
        if N > 0 {
            l[N - 1] = 1 << 63;
        }
        Wide(l)
    };

    /// Zero-extends `x`. For `N == 1` a value `>= 2^63` is reinterpreted as
    /// negative (wraps); use [`Wide::checked_from_u64`] if that matters.
    pub const fn from_u64(x: u64) -> Self {
        let mut l = [0; N];
        if N > 0 {
            l[0] = x;
        }
        Wide(l)
    }

    /// `x` as a `Wide`, or `None` if it does not fit (only possible for `N <= 1`).
    pub const fn checked_from_u64(x: u64) -> Option<Self> {
        if N == 0 && x != 0 || N == 1 && x >> 63 != 0 {
            None
        } else {
            Some(Self::from_u64(x))
        }
    }

    /// Sign-extends `x` (exact for every `N >= 1`).
    pub const fn from_i64(x: i64) -> Self {
        let fill = if x < 0 { u64::MAX } else { 0 };
        let mut l = [fill; N];
        if N > 0 {
            l[0] = x as u64;
        }
        Wide(l)
    }

    /// The value as `i128`, if it fits.
    pub fn to_i128(&self) -> Option<i128> {
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        let lo = self.0.first().copied().unwrap_or(0);
        let hi = self.0.get(1).copied().unwrap_or(fill);
        let v = ((hi as u128) << 64 | lo as u128) as i128;
        if self.0.iter().skip(2).all(|&l| l == fill) && (v < 0) == self.is_negative() {
            Some(v)
        } else {
            None
        }
    }

    /// True if the value is below zero.
    #[inline]
    pub fn is_negative(&self) -> bool {
        self.0.last().is_some_and(|&l| l >> 63 == 1)
    }

    /// True if the value is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Addition modulo `2^BITS`.
    #[inline]
    pub fn wrapping_add(self, rhs: Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (o, (a, b)) in out.iter_mut().zip(self.0.iter().zip(rhs.0.iter())) {
            let (s1, c1) = a.overflowing_add(*b);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *o = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }

    /// Subtraction modulo `2^BITS`.
    #[inline]
    pub fn wrapping_sub(self, rhs: Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (o, (a, b)) in out.iter_mut().zip(self.0.iter().zip(rhs.0.iter())) {
            let (d1, b1) = a.overflowing_sub(*b);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *o = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    /// Negation modulo `2^BITS` (`MIN` maps to itself).
    pub fn wrapping_neg(self) -> Self {
        Self::ZERO.wrapping_sub(self)
    }

    /// `self + rhs`, or `None` on signed overflow.
    #[inline]
    pub fn checked_add(self, rhs: Self) -> Option<Self> {
        let r = self.wrapping_add(rhs);
        let (sa, sb, sr) = (self.is_negative(), rhs.is_negative(), r.is_negative());
        if sa == sb && sr != sa { None } else { Some(r) }
    }

    /// `self - rhs`, or `None` on signed overflow.
    #[inline]
    pub fn checked_sub(self, rhs: Self) -> Option<Self> {
        let r = self.wrapping_sub(rhs);
        let (sa, sb, sr) = (self.is_negative(), rhs.is_negative(), r.is_negative());
        if sa != sb && sr != sa { None } else { Some(r) }
    }

    /// `-self`, or `None` for `MIN`.
    pub fn checked_neg(self) -> Option<Self> {
        Self::ZERO.checked_sub(self)
    }

    /// Logical shift left by `bits`; bits shifted out are lost (zero if
    /// `bits >= BITS`).
    pub fn wrapping_shl(self, bits: u32) -> Self {
        let mut out = [0; N];
        let limbs = (bits / 64) as usize;
        let sh = bits % 64;
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << sh;
            if sh != 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - sh);
            }
            out[i] = v;
        }
        Wide(out)
    }

    /// Arithmetic (sign-propagating) shift right: `floor(self / 2^bits)`.
    #[inline]
    pub fn shr_floor(self, bits: u32) -> Self {
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        let mut out = [fill; N];
        let limbs = (bits / 64) as usize;
        let sh = bits % 64;
        for (i, o) in out.iter_mut().enumerate() {
            let src = i + limbs;
            if src >= N {
                break;
            }
            let hi = if src + 1 < N { self.0[src + 1] } else { fill };
            *o = if sh == 0 {
                self.0[src]
            } else {
                self.0[src] >> sh | hi << (64 - sh)
            };
        }
        Wide(out)
    }

    /// `self * 2^bits`, or `None` if the result is not representable.
    /// This is the building block for lexicographic weights:
    /// `w = w.checked_shl(width)?.checked_add(criterion)?`.
    pub fn checked_shl(self, bits: u32) -> Option<Self> {
        if self.is_zero() {
            return Some(self);
        }
        if bits >= Self::BITS {
            return None;
        }
        let r = self.wrapping_shl(bits);
        if r.shr_floor(bits) == self {
            Some(r)
        } else {
            None
        }
    }

    /// `self * m`, or `None` on overflow.
    pub fn checked_mul_u64(self, m: u64) -> Option<Self> {
        let neg = self.is_negative();
        let mag = if neg { self.wrapping_neg() } else { self };
        // Unsigned multiply of the magnitude (`MIN` has magnitude 2^(BITS-1)).
        let mut out = [0u64; N];
        let mut carry: u128 = 0;
        for (o, &l) in out.iter_mut().zip(mag.0.iter()) {
            let p = l as u128 * m as u128 + carry;
            *o = p as u64;
            carry = p >> 64;
        }
        if carry != 0 {
            return None;
        }
        let prod = Wide(out);
        if neg {
            // Representable iff magnitude <= 2^(BITS-1).
            let r = prod.wrapping_neg();
            if prod.is_zero() || r.is_negative() {
                Some(r)
            } else {
                None
            }
        } else if prod.is_negative() {
            None
        } else {
            Some(prod)
        }
    }

    /// Divides the (unsigned) limbs in place by `d`, returning the remainder.
    fn divrem_unsigned(limbs: &mut [u64; N], d: u64) -> u64 {
        let mut rem: u128 = 0;
        for l in limbs.iter_mut().rev() {
            let cur = rem << 64 | *l as u128;
            *l = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        rem as u64
    }
}

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        // The top limb carries the sign (compare it signed); the lower limbs
        // compare unsigned.
        let Some(top) = N.checked_sub(1) else {
            return Ordering::Equal;
        };
        let ord = (self.0[top] as i64).cmp(&(other.0[top] as i64));
        if ord != Ordering::Equal {
            return ord;
        }
        for i in (0..top).rev() {
            if self.0[i] != other.0[i] {
                return self.0[i].cmp(&other.0[i]);
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> From<i64> for Wide<N> {
    fn from(x: i64) -> Self {
        Self::from_i64(x)
    }
}

impl<const N: usize> From<u32> for Wide<N> {
    fn from(x: u32) -> Self {
        Self::from_i64(x as i64)
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    /// Panics on overflow.
    fn add(self, rhs: Self) -> Self {
        self.checked_add(rhs)
            .expect("Wide: attempt to add with overflow")
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    /// Panics on overflow.
    fn sub(self, rhs: Self) -> Self {
        self.checked_sub(rhs)
            .expect("Wide: attempt to subtract with overflow")
    }
}

impl<const N: usize> Neg for Wide<N> {
    type Output = Self;
    /// Panics for `MIN`.
    fn neg(self) -> Self {
        self.checked_neg()
            .expect("Wide: attempt to negate with overflow")
    }
}

impl<const N: usize> Shl<u32> for Wide<N> {
    type Output = Self;
    /// Multiplies by `2^bits`; panics if the value does not fit (unlike the
    /// primitive `<<`, significant bits are never silently dropped).
    fn shl(self, bits: u32) -> Self {
        self.checked_shl(bits)
            .expect("Wide: attempt to shift left with overflow")
    }
}

impl<const N: usize> AddAssign for Wide<N> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<const N: usize> SubAssign for Wide<N> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<const N: usize> ShlAssign<u32> for Wide<N> {
    fn shl_assign(&mut self, bits: u32) {
        *self = *self << bits;
    }
}

impl<const N: usize> fmt::Display for Wide<N> {
    /// Decimal, with a leading `-` for negative values; honours width/fill/`+`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let neg = self.is_negative();
        // Magnitude as unsigned limbs; for MIN this is 2^(BITS-1), still exact.
        let mut mag = if neg { self.wrapping_neg().0 } else { self.0 };
        let mut chunks = Vec::new();
        loop {
            chunks.push(Self::divrem_unsigned(&mut mag, CHUNK));
            if mag.iter().all(|&l| l == 0) {
                break;
            }
        }
        let mut s = String::new();
        for (i, c) in chunks.iter().rev().enumerate() {
            if i == 0 {
                s.push_str(&c.to_string());
            } else {
                s.push_str(&format!("{c:019}"));
            }
        }
        f.pad_integral(!neg, "", &s)
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::tests::SplitMix64;

    type W2 = Wide<2>;
    type W4 = Wide<4>;

    fn w2(x: i128) -> W2 {
        Wide([x as u64, (x >> 64) as u64])
    }

    fn interesting_i128(rng: &mut SplitMix64) -> i128 {
        match rng.below(6) {
            0 => rng.next() as i64 as i128,
            1 => (rng.below(2001) as i128) - 1000,
            2 => i128::MAX - rng.below(4) as i128,
            3 => i128::MIN + rng.below(4) as i128,
            4 => ((rng.next() as u128) << 64 | rng.next() as u128) as i128,
            _ => (rng.next() as i128) << rng.below(64),
        }
    }

    #[test]
    fn constants() {
        assert_eq!(W2::MAX.to_i128(), Some(i128::MAX));
        assert_eq!(W2::MIN.to_i128(), Some(i128::MIN));
        assert_eq!(W4::ONE.to_i128(), Some(1));
        assert_eq!(W4::from_i64(-5).to_i128(), Some(-5));
        assert_eq!(W4::BITS, 256);
        assert_eq!(W4::default(), W4::ZERO);
        assert!(W4::MAX.to_i128().is_none());
        assert!(W4::MIN.to_i128().is_none());
        assert_eq!(Wide::<1>::checked_from_u64(u64::MAX), None);
        assert_eq!(W2::checked_from_u64(u64::MAX), Some(w2(u64::MAX as i128)));
        assert_eq!(W4::from(7u32), W4::from(7i64));
    }

    #[test]
    fn differential_against_i128() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..20_000 {
            let a = interesting_i128(&mut rng);
            let b = interesting_i128(&mut rng);
            let (wa, wb) = (w2(a), w2(b));
            assert_eq!(wa.cmp(&wb), a.cmp(&b), "{a} cmp {b}");
            assert_eq!(
                wa.checked_add(wb).map(|x| x.to_i128()),
                a.checked_add(b).map(Some)
            );
            assert_eq!(
                wa.checked_sub(wb).map(|x| x.to_i128()),
                a.checked_sub(b).map(Some)
            );
            assert_eq!(wa.wrapping_add(wb).to_i128(), Some(a.wrapping_add(b)));
            assert_eq!(wa.wrapping_sub(wb).to_i128(), Some(a.wrapping_sub(b)));
            assert_eq!(
                wa.checked_neg().map(|x| x.to_i128()),
                a.checked_neg().map(Some)
            );
            let s = rng.below(140) as u32;
            let expect_shl = if s >= 128 {
                if a == 0 { Some(0) } else { None }
            } else {
                let r = a.wrapping_shl(s);
                if r >> s == a { Some(r) } else { None }
            };
            assert_eq!(wa.checked_shl(s).map(|x| x.to_i128().unwrap()), expect_shl);
            assert_eq!(wa.shr_floor(s.min(127)).to_i128(), Some(a >> s.min(127)));
            let m = match rng.below(3) {
                0 => rng.below(10),
                1 => rng.next(),
                _ => 1 << rng.below(64),
            };
            assert_eq!(
                wa.checked_mul_u64(m).map(|x| x.to_i128().unwrap()),
                a.checked_mul(m as i128),
                "{a} * {m}"
            );
            assert_eq!(wa.to_string(), a.to_string());
            assert_eq!(format!("{wa:>50}"), format!("{a:>50}"));
            assert_eq!(format!("{wa:+}"), format!("{a:+}"));
        }
    }

    #[test]
    fn wide4_carries_and_display() {
        let max = W4::MAX;
        assert_eq!(
            max.to_string(),
            "57896044618658097711785492504343953926634992332820282019728792003956564819967"
        );
        assert_eq!(
            W4::MIN.to_string(),
            "-57896044618658097711785492504343953926634992332820282019728792003956564819968"
        );
        assert_eq!(max.checked_add(W4::ONE), None);
        assert_eq!(W4::MIN.checked_sub(W4::ONE), None);
        assert_eq!(W4::MIN.checked_neg(), None);
        assert_eq!(max.wrapping_add(W4::ONE), W4::MIN);
        // Carry through all limbs.
        let a = Wide([u64::MAX, u64::MAX, u64::MAX, 0]);
        assert_eq!(a + W4::ONE, Wide([0, 0, 0, 1]));
        assert_eq!(Wide([0, 0, 0, 1]) - W4::ONE, a);
        // 2^200 in decimal.
        let p = W4::ONE << 200;
        assert_eq!(
            p.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert_eq!((-p).to_string(), format!("-{p}"));
        assert_eq!(W4::ONE.checked_shl(254), Some(Wide([0, 0, 0, 1 << 62])));
        assert_eq!(W4::ONE.checked_shl(255), None);
        assert_eq!(W4::from_i64(-1).checked_shl(255), Some(W4::MIN));
        assert_eq!(W4::ZERO.checked_shl(1000), Some(W4::ZERO));
        assert_eq!(p.shr_floor(200), W4::ONE);
        assert_eq!(W4::from_i64(-3).shr_floor(1), W4::from_i64(-2));
        assert_eq!(W4::from_i64(-1).shr_floor(300), W4::from_i64(-1));
        // Ordering across limbs and signs.
        assert!(W4::MIN < W4::from_i64(-1));
        assert!(W4::from_i64(-1) < W4::ZERO);
        assert!(Wide::<4>([u64::MAX, 0, 0, 0]) < Wide([0, 1, 0, 0]));
        assert!(Wide::<4>([0, 0, 1, 0]) > Wide([u64::MAX, u64::MAX, 0, 0]));
        assert_eq!(p.checked_mul_u64(1 << 54), Some(W4::ONE << 254));
        assert_eq!(p.checked_mul_u64(1 << 55), None);
        assert_eq!((-p).checked_mul_u64(1 << 55), Some(W4::MIN));
        // Lexicographic building: (3, 0, 7) with 80-bit fields.
        let lex = ((W4::from(3u32) << 80) << 80) + W4::from(7u32);
        assert!(lex > (W4::from(2u32) << 160) + (W4::ONE << 159));
        assert_eq!(format!("{:?}", W4::from_i64(-42)), "-42");
    }

    #[test]
    fn operators_assign() {
        let mut x = W4::from_i64(5);
        x += W4::from_i64(10);
        x -= W4::from_i64(3);
        x <<= 4;
        assert_eq!(x, W4::from_i64(192));
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn add_overflow_panics() {
        let _ = W4::MAX + W4::ONE;
    }

    #[test]
    fn degenerate_widths() {
        assert!(!Wide::<0>::ZERO.is_negative());
        assert_eq!(Wide::<0>::ZERO.to_string(), "0");
        assert_eq!(Wide::<1>::MAX.to_i128(), Some(i64::MAX as i128));
        assert_eq!(
            Wide::<1>::from_i64(-9).checked_add(Wide::from_i64(4)),
            Some(Wide::from_i64(-5))
        );
    }
}
