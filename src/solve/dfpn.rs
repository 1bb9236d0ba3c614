//! Depth-first proof-number search (df-pn; Nagai 2002) generic over
//! [`Game`], following seed 000 (Kishimoto & Müller's tutorial): the
//! φ/δ (negamax) form, thresholds passed down by multiple iterative
//! deepening (MID), one fixed-size transposition table, with
//!
//! * **1+ε threshold growth** (Pawlewicz & Lew 2007): the best child's
//!   δ-threshold is `min(thφ, ⌈δ₂(1+ε)⌉)` rather than `δ₂ + 1`, so the
//!   search stays in a child longer and re-expands interior nodes less
//!   (ε = 1/4);
//! * **heuristic initialisation** (df-pn+, Nagai 2002) by mobility, the
//!   generic heuristic of seed 001 (a fresh leaf with c legal moves gets
//!   proof and disproof numbers 1 and c at an OR node, c and 1 at an AND
//!   node, which is φ = 1, δ = c in negamax form);
//! * [`Game::bound`] treated like a terminal outcome.
//!
//! # Draws
//!
//! df-pn answers yes/no questions. The solver first asks "does the player
//! to move win?" (a draw counts as no). If not, and the game can draw
//! ([`Game::may_draw`]), it asks "does the opponent win?": no means a
//! draw, yes a loss. The question is part of each table key, so the two
//! searches share the table without mixing.
//!
//! # Repetitions
//!
//! The games here never repeat a position, so the graph-history
//! interaction cannot arise; games that can ([`Game::repeats`], Go) are
//! refused rather than solved unsoundly.
//!
//! A **node** is one MID call (an expansion: the children are generated
//! and looked up); children merely initialised are not counted.

use super::buckets::{Buckets, Slot};
use super::depth_first::{check_acyclic, work_of, Budget, DEFAULT_MEMORY};
use super::{Limits, Report};
use crate::games::{Color, Game, MoveList, Outcome, MAX_MOVES};
use arrayvec::ArrayVec;

/// Proof or disproof number of a solved node.
pub const INF: u32 = u32::MAX;
/// Key of the second question ("does the opponent win?").
const SECOND_QUESTION: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    phi: u32,
    delta: u32,
    /// 1 + log2 of the nodes spent on it; 0 marks an empty slot.
    work: u8,
}

impl Slot for Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        phi: 0,
        delta: 0,
        work: 0,
    };
    fn key(&self) -> u64 {
        self.key
    }
    fn work(&self) -> u8 {
        self.work
    }
}

/// A df-pn solver with its table ([`Buckets`]: two-slot buckets, the
/// bigger subtree kept first, grown with use).
pub struct Dfpn {
    table: Buckets<Entry>,
}

impl Dfpn {
    pub fn new(limits: &Limits) -> Dfpn {
        let bytes = limits.memory.unwrap_or(DEFAULT_MEMORY).max(1 << 12);
        Dfpn {
            table: Buckets::new(bytes),
        }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    fn probe(&self, key: u64) -> Option<(u32, u32)> {
        self.table.find(key).map(|e| (e.phi, e.delta))
    }

    fn store(&mut self, key: u64, phi: u32, delta: u32, nodes: u64) {
        let mut e = Entry {
            key,
            phi,
            delta,
            work: work_of(nodes),
        };
        // Solved entries are worth keeping whatever they cost.
        if phi == 0 || delta == 0 {
            e.work = u8::MAX;
        }
        if let Some(old) = self.table.find_mut(key) {
            e.work = e.work.max(old.work);
            *old = e;
            return;
        }
        self.table.insert(e);
    }

    /// Solves `game` for the player to move (table cleared first).
    pub fn solve<G: Game>(&mut self, game: &G, limits: &Limits) -> Report<G::Move> {
        self.table.clear();
        let mut s = Search {
            dfpn: self,
            budget: Budget::new(limits),
            attacker: game.to_move(),
            salt: 0,
        };
        let mut g = game.clone();
        let report = |value, best, s: &Search<'_, '_>| Report {
            value,
            best,
            stopped: s.budget.stopped,
            nodes: s.budget.nodes,
            elapsed: s.budget.elapsed(),
            peak_memory: s.dfpn.bytes(),
        };
        if let Some(o) = g.outcome() {
            return report(Some(o), None, &s);
        }
        let mover = g.to_move();
        match s.ask(&mut g, mover, 0) {
            Answer::Yes(best) => return report(Some(Outcome::Win), best, &s),
            Answer::Stopped => return report(None, None, &s),
            Answer::No => {}
        }
        let first = s.any_move(&mut g);
        if !g.may_draw() {
            return report(Some(Outcome::Loss), first, &s);
        }
        match s.ask(&mut g, mover.opp(), SECOND_QUESTION) {
            Answer::Yes(_) => report(Some(Outcome::Loss), first, &s),
            // The opponent cannot win: the mover holds the draw with the
            // move that disproves the opponent's win.
            Answer::No => {
                let hold = s.proving_move(&mut g);
                report(Some(Outcome::Draw), hold, &s)
            }
            Answer::Stopped => report(None, None, &s),
        }
    }
}

/// The answer to "does the attacker win?".
enum Answer<M> {
    /// Yes; with the winning move when the attacker is to move.
    Yes(Option<M>),
    No,
    Stopped,
}

/// Solves `game` with a fresh df-pn solver.
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Result<Report<G::Move>, String> {
    check_acyclic(game)?;
    Ok(Dfpn::new(limits).solve(game, limits))
}

struct Search<'d, 'l> {
    dfpn: &'d mut Dfpn,
    budget: Budget<'l>,
    /// The player whose win is asked about.
    attacker: Color,
    /// XORed into keys: which question.
    salt: u64,
}

/// φ and δ of a position the rules or the bound decide: 0/∞ when the
/// player to move gets what it wants (a win for the attacker, a win or a
/// draw for the defender), ∞/0 otherwise.
fn decided(o: Outcome, mover: Color, attacker: Color) -> (u32, u32) {
    let success = o == Outcome::Win || (o == Outcome::Draw && mover != attacker);
    if success {
        (0, INF)
    } else {
        (INF, 0)
    }
}

impl Search<'_, '_> {
    /// Asks whether `attacker` wins from `g`.
    fn ask<G: Game>(&mut self, g: &mut G, attacker: Color, salt: u64) -> Answer<G::Move> {
        self.attacker = attacker;
        self.salt = salt;
        let (phi, delta) = self.mid(g, INF, INF);
        if phi != 0 && delta != 0 {
            return Answer::Stopped;
        }
        let attacker_to_move = g.to_move() == attacker;
        if (phi == 0) == attacker_to_move {
            Answer::Yes(if attacker_to_move {
                self.proving_move(g)
            } else {
                None
            })
        } else {
            Answer::No
        }
    }

    fn key<G: Game>(&self, g: &G) -> u64 {
        g.canonical_key() ^ self.salt
    }

    /// φ/δ of the child position `g` without expanding it.
    fn look<G: Game>(&self, g: &G) -> (u32, u32) {
        let mover = g.to_move();
        if let Some(o) = g.outcome().or_else(|| g.bound()) {
            return decided(o, mover, self.attacker);
        }
        if let Some(pd) = self.dfpn.probe(self.key(g)) {
            return pd;
        }
        (1, g.mobility().max(1) as u32)
    }

    /// The child whose δ is 0 (the mover's proven success), after a solve.
    fn proving_move<G: Game>(&self, g: &mut G) -> Option<G::Move> {
        let mut moves = MoveList::new();
        g.moves(&mut moves);
        moves.into_iter().find(|&m| {
            let undo = g.play(m);
            let (_, delta) = self.look(g);
            g.undo(m, undo);
            delta == 0
        })
    }

    fn any_move<G: Game>(&self, g: &mut G) -> Option<G::Move> {
        let mut moves = MoveList::new();
        g.moves(&mut moves);
        moves.first().copied()
    }

    /// Multiple iterative deepening: expands `g` until its φ reaches
    /// `th_phi` or its δ reaches `th_delta` (or a limit), and returns them.
    fn mid<G: Game>(&mut self, g: &mut G, th_phi: u32, th_delta: u32) -> (u32, u32) {
        let mover = g.to_move();
        if let Some(o) = g.outcome().or_else(|| g.bound()) {
            return decided(o, mover, self.attacker);
        }
        if !self.budget.count() {
            return self.look(g);
        }
        let before = self.budget.nodes;
        let key = self.key(g);
        let mut moves = MoveList::new();
        g.moves(&mut moves);
        let mut pd = ArrayVec::<(u32, u32), MAX_MOVES>::new();
        for &m in &moves {
            let undo = g.play(m);
            pd.push(self.look(g));
            g.undo(m, undo);
        }
        loop {
            // φ = min δ(child), δ = Σ φ(child) (saturating at ∞).
            let (mut phi, mut delta) = (INF, 0u32);
            let (mut best, mut delta1, mut delta2) = (0, INF, INF);
            for (i, &(cp, cd)) in pd.iter().enumerate() {
                phi = phi.min(cd);
                delta = if cp == INF || delta == INF {
                    INF
                } else {
                    (delta as u64 + cp as u64).min(INF as u64 - 1) as u32
                };
                if cd < delta1 {
                    delta2 = delta1;
                    delta1 = cd;
                    best = i;
                } else if cd < delta2 {
                    delta2 = cd;
                }
            }
            if phi >= th_phi || delta >= th_delta || self.budget.stopped.is_some() {
                self.dfpn.store(key, phi, delta, self.budget.nodes - before);
                return (phi, delta);
            }
            let (cp, _) = pd[best];
            // The best child may take the whole δ-threshold slack; its
            // δ-threshold grows by the factor 1+ε past the second best.
            let child_phi = if th_delta == INF {
                INF
            } else {
                th_delta - (delta - cp)
            };
            let grown = (delta2 as u64 + delta2 as u64 / 4 + 1).min(INF as u64) as u32;
            let child_delta = th_phi.min(grown);
            let m = moves[best];
            let undo = g.play(m);
            pd[best] = self.mid(g, child_phi, child_delta);
            g.undo(m, undo);
        }
    }
}
