//! Proof zones of defender wins, for the zone fixed point (`fixpoint`):
//! what a move reads, the zones of leaves, and the side table that keeps
//! the zones of searched nodes.
//!
//! A zone holds every point a proof *reads*: change nothing on it (only add
//! attacker stones and remove defender stones elsewhere) and the proof
//! still holds (the *transfer* of `fixpoint`'s module documentation, after
//! the relevance zones of Kishimoto & Müller's df-pn solver for life and
//! death, seed 000, and of Thomsen's λ-search, seed 002). The functions
//! here give each kind of node's reads; why they are enough is argued in
//! `fixpoint`. Every block that contributes a stone is read whole (stones
//! and liberties): with no bound on the number of far stones, no block may
//! be read by a few stones only.

use super::search::Search;
use crate::go::board::{Board, Point, PASS};
use crate::go::Color;
use crate::tactics::rules::Winner;
use crate::tactics::zone::Zone;
use crate::tactics::{life, race};

/// Slots of the zone table (a power of two): 109 MB, allocated by the
/// first search with the zone fixed point. Zones are read when a parent
/// closes its zone, often long after they were written, and a lost one
/// fails the parent's fixed point, whose own proof then has no zone, and
/// so on up (a cascade). With 2^18 slots that cascade, started by lost
/// zones, was the main cause of failed fixed points on capture test 2
/// (4,719 of them at 1M nodes); with 2^20 or 2^21 slots, 27 to 29.
pub const ZONE_SLOTS: usize = 1 << 20;

/// One slot of the zone table: a node's key and its proof's zone.
#[derive(Clone, Copy, Default)]
pub struct ZoneSlot {
    pub key: u64,
    pub zone: Zone,
}

fn zone_slot(key: u64) -> usize {
    // The high bits: the transposition table indexes by the low ones.
    (key >> 40) as usize & (ZONE_SLOTS - 1)
}

/// Adds to `z` the attacker block on `p` whole and every defender block
/// next to it whole: none of those can be captured by far stones, so the
/// attacker block keeps its liberties.
fn add_attacker_block_closed(b: &Board, attacker: Color, z: &mut Zone, p: Point) {
    let defender = attacker.opp();
    z.add_block(b, p);
    b.for_each_stone(p, |s| {
        for t in Board::neighbors(s) {
            if b.color_at(t) == Some(defender) && !z.contains(t) {
                z.add_block(b, t);
            }
        }
    });
}

/// What the attacker's legal move `q` on board `b` reads: the point, the
/// defender blocks next to it whole (which it may capture), and when it
/// captures, its neighbours (the ko ban it leaves).
pub fn attacker_reads(b: &Board, attacker: Color, q: Point, z: &mut Zone) {
    let defender = attacker.opp();
    z.insert(q);
    let mut captures = false;
    for n in Board::neighbors(q) {
        if b.color_at(n) == Some(defender) {
            captures |= b.libs(n) == 1;
            z.add_block(b, n);
        }
    }
    if captures {
        for n in Board::neighbors(q) {
            z.insert(n);
        }
    }
}

/// What makes the attacker's move on the empty point `q` of board `b` a
/// suicide: its neighbours, their blocks whole, and the defender blocks
/// around its attacker neighbours (which could otherwise gain liberties).
pub fn illegal_reads(b: &Board, attacker: Color, q: Point, z: &mut Zone) {
    z.insert(q);
    for n in Board::neighbors(q) {
        z.insert(n);
        match b.color_at(n) {
            Some(c) if c == attacker => add_attacker_block_closed(b, attacker, z, n),
            Some(_) => z.add_block(b, n),
            None => {}
        }
    }
}

/// What the defender's move `d` on board `b` (before it is played) reads:
/// `Zone::add_move` with every neighbouring block whole, and the defender
/// blocks around each attacker block it captures.
pub fn defender_reads(b: &Board, attacker: Color, d: Point, z: &mut Zone) {
    if d == PASS {
        return;
    }
    z.add_move(b, d, attacker.opp(), usize::MAX);
    for n in Board::neighbors(d) {
        if b.color_at(n) == Some(attacker) && b.libs(n) == 1 {
            add_attacker_block_closed(b, attacker, z, n);
        }
    }
}

impl Search<'_> {
    /// The zone stored for the current node, if any.
    pub(super) fn stored_zone(&self) -> Option<Zone> {
        let key = self.key() ^ self.zone_salt;
        let i = zone_slot(key);
        [i, i ^ 1]
            .into_iter()
            .map(|j| &self.zones[j])
            .find(|s| s.key == key)
            .map(|s| s.zone)
    }

    /// Stores `zone` as the current node's proof zone.
    /// Slots come in pairs: a new zone goes first, the one it displaces
    /// second (unless it is the same node's), so that each zone survives
    /// at least one more store to its pair.
    pub(super) fn store_zone(&mut self, zone: &Zone) {
        let key = self.key() ^ self.zone_salt;
        let i = zone_slot(key) & !1;
        let (a, b) = (i, i + 1);
        if self.zones[b].key == key {
            self.zones[b].zone = *zone;
            return;
        }
        if self.zones[a].key != key {
            self.zones[b] = self.zones[a];
        }
        self.zones[a] = ZoneSlot { key, zone: *zone };
    }

    /// The target block, stones and liberties.
    pub(super) fn target_zone(&self) -> Zone {
        let mut z = Zone::new();
        z.add_block(self.game.board(), self.target);
        z
    }

    /// The proof zone of the current node, a defender win: a leaf's reads,
    /// or the stored zone of a searched node; `None` when unknown.
    pub(super) fn node_zone(&self) -> Option<Zone> {
        let g = &self.game;
        match g.winner() {
            Some(Winner::Defender) if !g.last_was_cut() => return Some(self.target_zone()),
            Some(_) => return None,
            None => {}
        }
        if let Some(z) = self.stored_zone() {
            return Some(z);
        }
        let mut z = self.target_zone();
        if g.to_move() == self.attacker {
            // As `exact` decides it: unconditional life, a won race, then
            // life through kos the favoured defender retakes.
            let (b, t) = (g.board(), self.target);
            let escape = g.problem().escape_libs;
            if life::target_lives(b, t, Some(&mut z))
                || race::race_zone(b, t, escape, &mut z)
                || self.target_ko_lives(Some(&mut z))
            {
                return Some(z);
            }
        } else if self.anc.last().is_some_and(|a| a.passed) {
            // The defender passes back: two passes.
            return Some(z);
        }
        None
    }

    /// The proof zone of the child of move `m`, a defender win.
    pub(super) fn child_zone(&mut self, m: Point) -> Option<Zone> {
        if !self.play(m) {
            return None;
        }
        let z = self.node_zone();
        self.undo();
        z
    }

    /// What the attacker's legal move `q` reads here.
    pub(super) fn attacker_reads(&self, q: Point, z: &mut Zone) {
        attacker_reads(self.game.board(), self.attacker, q, z);
    }

    /// What makes the attacker's move on `q` a suicide here.
    pub(super) fn illegal_reads(&self, q: Point, z: &mut Zone) {
        illegal_reads(self.game.board(), self.attacker, q, z);
    }

    /// What the defender's move `d` reads here.
    pub(super) fn defender_reads(&self, d: Point, z: &mut Zone) {
        defender_reads(self.game.board(), self.attacker, d, z);
    }

    /// The proof zone of the current node, a defender to move that wins
    /// with `best`: what the move reads and its child's zone.
    pub(super) fn defender_win_zone(&mut self, best: Point) -> Option<Zone> {
        let mut z = self.child_zone(best)?;
        z.union(&self.target_zone());
        self.defender_reads(best, &mut z);
        Some(z)
    }
}
