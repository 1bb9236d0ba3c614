//! Random numbers and board bookkeeping for the GNU Go differential test:
//! the harness's own view of the position, used to pick tricky moves (suicide
//! points, captures, ko retakes) and to compare `list_stones` answers.

use super::*;

// Random numbers: xorshift64, seeded through splitmix64 so that nearby seeds
// (one per session) give unrelated streams. No external crate: the sequence
// must stay fixed forever so that a reported failure replays identically.

pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng(z | 1) // xorshift must not start at zero
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in `0..n`; `n` must be positive.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub(crate) fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.below(items.len())])
        }
    }
}

// ---------------------------------------------------------------------------
// The harness's own view of the board. It is rebuilt from the reference's
// `list_stones` answers after every move, so the harness needs no Go rules of
// its own beyond finding strings and liberties to aim its tricky tries.

pub(crate) type Point = (u8, u8); // (column, row), both from 0; row 0 is GTP row 1

pub(crate) fn vertex_name(p: Point) -> String {
    Vertex::new(p.0, p.1).to_string()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) size: usize,
    pub(crate) cells: Vec<Option<Color>>,
}

impl Position {
    pub(crate) fn empty(size: usize) -> Position {
        Position {
            size,
            cells: vec![None; size * size],
        }
    }

    pub(crate) fn from_stones(
        size: usize,
        black: &BTreeSet<Point>,
        white: &BTreeSet<Point>,
    ) -> Position {
        let mut pos = Position::empty(size);
        for &p in black {
            pos.set(p, Some(Color::Black));
        }
        for &p in white {
            pos.set(p, Some(Color::White));
        }
        pos
    }

    pub(crate) fn idx(&self, p: Point) -> usize {
        p.1 as usize * self.size + p.0 as usize
    }

    pub(crate) fn get(&self, p: Point) -> Option<Color> {
        self.cells[self.idx(p)]
    }

    pub(crate) fn set(&mut self, p: Point, c: Option<Color>) {
        let i = self.idx(p);
        self.cells[i] = c;
    }

    pub(crate) fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.size as u8;
        (0..n).flat_map(move |row| (0..n).map(move |col| (col, row)))
    }

    pub(crate) fn neighbours(&self, p: Point) -> Vec<Point> {
        let n = self.size as i32;
        let (c, r) = (p.0 as i32, p.1 as i32);
        [(c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)]
            .into_iter()
            .filter(|&(c, r)| c >= 0 && r >= 0 && c < n && r < n)
            .map(|(c, r)| (c as u8, r as u8))
            .collect()
    }

    pub(crate) fn stones(&self, c: Color) -> BTreeSet<Point> {
        self.points().filter(|&p| self.get(p) == Some(c)).collect()
    }

    pub(crate) fn has_stones_of(&self, c: Color) -> bool {
        self.cells.contains(&Some(c))
    }

    pub(crate) fn has_stones(&self) -> bool {
        self.cells.iter().any(|c| c.is_some())
    }

    /// The liberties of the string through the stone at `p`.
    pub(crate) fn liberties(&self, p: Point) -> BTreeSet<Point> {
        let colour = self.get(p);
        let mut seen = BTreeSet::from([p]);
        let mut stack = vec![p];
        let mut libs = BTreeSet::new();
        while let Some(q) = stack.pop() {
            for n in self.neighbours(q) {
                match self.get(n) {
                    None => {
                        libs.insert(n);
                    }
                    c if c == colour && seen.insert(n) => stack.push(n),
                    _ => {}
                }
            }
        }
        libs
    }

    pub(crate) fn empty_points(&self) -> Vec<Point> {
        self.points().filter(|&p| self.get(p).is_none()).collect()
    }

    pub(crate) fn occupied_points(&self) -> Vec<Point> {
        self.points().filter(|&p| self.get(p).is_some()).collect()
    }

    /// Empty points where a stone of `c` would have no liberty of its own:
    /// every neighbour is an opponent stone or a friendly string whose last
    /// liberty is this point. Playing there is suicide unless it captures.
    pub(crate) fn suicide_candidates(&self, c: Color) -> Vec<Point> {
        self.empty_points()
            .into_iter()
            .filter(|&p| {
                self.neighbours(p).into_iter().all(|n| match self.get(n) {
                    None => false,
                    Some(o) if o == c => self.liberties(n) == BTreeSet::from([p]),
                    Some(_) => true,
                })
            })
            .collect()
    }

    /// Empty points where `c` would capture something.
    pub(crate) fn capturing_moves(&self, c: Color) -> Vec<Point> {
        let mut moves = BTreeSet::new();
        for p in self.stones(c.opp()) {
            let libs = self.liberties(p);
            if libs.len() == 1 {
                moves.extend(libs);
            }
        }
        moves.into_iter().collect()
    }
}

/// Parses a `list_stones` or `fixed_handicap` answer: vertices separated by
/// white space, in any order and letter case.
pub(crate) fn parse_vertices(body: &str, size: usize) -> Result<BTreeSet<Point>, String> {
    let mut set = BTreeSet::new();
    for word in body.split_whitespace() {
        let bad = || format!("`{word}` is not a vertex on a {size}x{size} board");
        let mut chars = word.chars();
        let col = chars
            .next()
            .and_then(Vertex::col_from_letter)
            .ok_or_else(bad)?;
        let row: usize = chars.as_str().parse().map_err(|_| bad())?;
        if col as usize >= size || row == 0 || row > size {
            return Err(bad());
        }
        if !set.insert((col, (row - 1) as u8)) {
            return Err(format!("vertex `{word}` listed twice"));
        }
    }
    Ok(set)
}

pub(crate) fn format_set(set: &BTreeSet<Point>) -> String {
    let names: Vec<String> = set.iter().map(|&p| vertex_name(p)).collect();
    format!("{{{}}}", names.join(" "))
}

pub(crate) fn format_answer(a: &Result<String, String>) -> String {
    match a {
        Ok(body) => format!("`= {body}`"),
        Err(msg) => format!("`? {msg}`"),
    }
}
