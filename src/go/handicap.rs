//! GTP's fixed handicap placement (GTP v2 draft 2, section 4.1.1), with the
//! limits GNU Go applies: boards of 7×7 and up, at most four stones on even
//! sizes and on 7×7, at most nine otherwise. Stones sit on the third line on
//! boards up to 11×11 and on the fourth line from 12×12 up.

use super::vertex::Vertex;

/// The vertices of `n` fixed handicap stones on a `size` board, listed top
/// row first and left to right (the order GNU Go answers in), or `None` when
/// `n` stones cannot be placed there.
pub fn fixed(size: usize, n: u32) -> Option<Vec<Vertex>> {
    let max = if size < 7 {
        0
    } else if size.is_multiple_of(2) || size == 7 {
        4
    } else {
        9
    };
    if n < 2 || n > max {
        return None;
    }
    let lo = if size > 11 { 3 } else { 2 };
    let hi = size - 1 - lo;
    let mid = size / 2;
    let mut pts = vec![(hi, hi), (lo, lo)];
    if n >= 3 {
        pts.push((lo, hi));
    }
    if n >= 4 {
        pts.push((hi, lo));
    }
    if n >= 6 {
        pts.push((lo, mid));
        pts.push((hi, mid));
    }
    if n >= 8 {
        pts.push((mid, lo));
        pts.push((mid, hi));
    }
    if n % 2 == 1 && n >= 5 {
        pts.push((mid, mid));
    }
    let mut v: Vec<Vertex> = pts
        .into_iter()
        .map(|(c, r)| Vertex::new(c as u8, r as u8))
        .collect();
    sort_gtp(&mut v);
    Some(v)
}

/// The largest number of free handicap stones GTP allows: every point but one.
pub fn max_free(size: usize) -> usize {
    size * size - 1
}

/// Sorts vertices top row first, then left to right, as GNU Go lists them.
pub fn sort_gtp(v: &mut [Vertex]) {
    v.sort_by_key(|x| (std::cmp::Reverse(x.row), x.col));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: usize, n: u32) -> String {
        fixed(size, n)
            .map(|v| {
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_else(|| "-".into())
    }

    #[test]
    fn matches_gnugo_placement() {
        assert_eq!(names(19, 9), "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4");
        assert_eq!(names(19, 7), "D16 Q16 D10 K10 Q10 D4 Q4");
        assert_eq!(names(9, 2), "G7 C3");
        assert_eq!(names(9, 5), "C7 G7 E5 C3 G3");
        assert_eq!(names(12, 3), "D9 J9 D4");
        assert_eq!(names(7, 4), "C5 E5 C3 E3");
        assert_eq!(names(7, 5), "-");
        assert_eq!(names(8, 5), "-");
        assert_eq!(names(6, 2), "-");
        assert_eq!(names(19, 1), "-");
        assert_eq!(names(19, 10), "-");
    }
}
