//! One sort for the cold paths (diagnostics, summaries, texts shown to people, a game's
//! load): stable, written once whatever the element type or comparison. Each call of the
//! standard library's `sort_by` with its own closure is a copy of the whole sort (about
//! 5 KB of the page's wasm each); here the comparison reaches one sort of indices through
//! a reference. The hot paths (states, ground rules, network gates) keep the standard calls.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`.
pub fn sort_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let order = permutation(v.len(), &|a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    *v = order.into_iter().filter_map(|i| slots[i].take()).collect();
}

/// Sorts `v` stably by `key`.
pub fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)))
}

/// Sorts `v` (stably, which for equal elements that cannot be told apart is the same).
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, T::cmp)
}

/// The indices `0..n` in the order `cmp` gives them (ties in index order).
fn permutation(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

#[cfg(test)]
mod tests {
    #[test]
    fn sorts_stably_whatever_the_type() {
        let mut v = vec![(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd'), (1, 'e')];
        super::sort_by_key(&mut v, |p| p.0);
        assert_eq!(v, [(0, 'd'), (1, 'b'), (1, 'e'), (2, 'a'), (2, 'c')]);
        let mut w = vec!["pear".to_string(), "apple".into(), "fig".into()];
        super::sort(&mut w);
        assert_eq!(w, ["apple", "fig", "pear"]);
        let mut none: Vec<u8> = Vec::new();
        super::sort(&mut none);
        assert!(none.is_empty());
    }
}
