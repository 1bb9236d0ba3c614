//! The zone fixed point: proving that the attacker's far moves change
//! nothing, from df-pn's own proofs.
//!
//! Where the defender saves the target, df-pn must refute every attacker
//! move on the board, and most are far from the fight: on a large board
//! that is hundreds of children per attacker node, each refuted the same
//! way. Kishimoto & Müller's df-pn solver for life and death (seed 000,
//! "search versus knowledge") prunes them with the *relevance zones* of
//! proven results; λ-search (Thomsen 2000; seed 002) does the same with the
//! zone of a threat. This module does it with the zones of df-pn's proofs
//! of defender wins, closed to a fixed point at each attacker node.
//!
//! # The rule
//!
//! At a node N where the attacker is to move, the frame lists only the
//! pass, the target's liberties and the captures (no group). When all of
//! them are lost, the zone Z is built:
//!
//! * the target block (stones and liberties), and the zone of the pass
//!   child's proof;
//! * for every empty point q of Z: if q starts a ko loop (below), what the
//!   loop reads joins Z; else if the attacker may play q, the move is
//!   listed (a new child, searched like any) and, once it is refuted, the
//!   zone of its proof and what the move itself reads
//!   ([`Search::attacker_reads`]) join Z; if q is the attacker's ko ban,
//!   q alone joins Z (a retake is a capture, never a suicide, so the ban
//!   alone makes it illegal); if q is a suicide, what makes it illegal
//!   joins Z ([`Search::illegal_reads`]);
//!
//! until no new point comes in. Then N is lost for the attacker: every
//! move outside Z loses too (below). Z is N's proof zone. When a child's
//! zone is unknown (a path-dependent result, a proof whose zone was lost
//! from the side table), the fixed point fails and the node is expanded
//! again as a plain full-width df-pn node (group included); such a node
//! keeps no zone.
//!
//! **Ko.** A far move can be a ko threat: were the defender to pass, the
//! attacker could retake a ko. Two cases are handled (`kozone`):
//!
//! * *The ko loop*, when the ko model favours the defender (it may retake
//!   at once). q starts a ko loop at N when the attacker's move there
//!   (any ban ignored) takes exactly one defender stone (the target too,
//!   when it is that stone: the favoured defender retakes it as any other),
//!   and leaves its own stone alone with one liberty d, and the defender's
//!   retake at d brings back N's stones with the attacker banned from q
//!   ([`Search::ko_loop`]). Such a move needs no child: the retake
//!   refutes it (below). It reads what the capture reads and what the
//!   retake reads ([`Search::defender_reads`] after the capture). A ban
//!   on such a ko binds the attacker but needs nothing more.
//! * *The pseudo-child*, for any other ban that binds the attacker at N
//!   (it is not the ko model's favoured player): the frame also holds a
//!   pseudo-child [`NULL_MOVE`](super::kozone::NULL_MOVE), the position N°
//!   with N's stones, the defender to move, no ban and no pass just
//!   played (reached by the attacker's null move). The defender must win
//!   there, and the zone of its proof joins Z's seed; if the attacker wins
//!   there, or the line is cut, the node is searched full width. The
//!   pseudo-child is never a winning child.
//!
//! # Proof zones
//!
//! A *proof* of a defender win here is a tree T of nodes with no cut leaf
//! (no `PATH_DEP`): at a defender node one move, at an attacker node either
//! the rule above (with its zone) or nothing else (a node without a zone
//! has no usable proof zone). Its zone Z(T) holds what every node *reads*:
//!
//! * at a leaf: the target block (an escape, or two passes) and, for
//!   unconditional life, Benson's certificate (`life::target_lives`, as the
//!   threat proofs read it: the alive blocks whole, their vital regions);
//!   for a won race, what the race rule read (`race::race_zone`: the
//!   target, the attacker block it captures and every defender block
//!   around that block's region whole, the region's points);
//! * at a defender node with move d: `Zone::add_move` for d with every
//!   neighbouring block read whole, and for each attacker block d captures
//!   every defender block next to it whole ([`Search::defender_reads`]);
//! * at an attacker node: its own fixed point.
//!
//! Every block that contributes a stone to a zone is read whole (stones
//! and liberties) at the node that reads it: with no bound on the number
//! of far stones, no block may be read by a few stones only.
//!
//! # Why it is sound
//!
//! Write Fam(K, Z) for the positions K' with the same player to move such
//! that: every point of Z holds in K' what it holds in K; K' differs from K
//! elsewhere only by attacker stones on points empty in K and by empty
//! points where K has defender stones; K' has at least K's passes in a row
//! (a pass then ends the game as in K, or sooner); and on Z the mover's ko
//! ban of K' is K's when the attacker moves, and no more than K's when the
//! defender moves.
//!
//! **Transfer.** If T proves a defender win at K with zone Z, the defender
//! wins at every K' in Fam(K, Z). By induction on T. Along the tree every
//! move is on a point of Z, so a point outside Z that is empty in K stays
//! empty in every node of T: it is never next to a block read at a node
//! (it would be one of its liberties, in Z). So in every node, relative to
//! K', a read defender block has the same liberties (far stones sit on no
//! liberty of it, and defender blocks never touch the removed ones), and a
//! read attacker block has the same stones and at least its liberties (it
//! gains only where a removed defender block touched it).
//!
//! * Leaves: the target's stones and liberties are read, so an escape is
//!   an escape; Benson's certificate reads the alive blocks and their
//!   regions, whose boundary is made of those blocks, so it proves life in
//!   K' too; the race rule's quantities are all the same in K' (see
//!   `race`); two passes end K' as well. A cut, anywhere in K', is a
//!   defender win anyway.
//! * A defender node: d is on a read point, with its neighbours read (so
//!   no far stone touches d, and a ko ban left by d is the same) and its
//!   neighbouring blocks whole. A captured attacker block is in atari in
//!   K; its defender neighbours are read whole, so none was removed and it
//!   is in atari in K' too: d captures the same blocks, is legal (the
//!   defender's ban in K' is no more than in K), and the child of K' is in
//!   the family of the child of K.
//! * An attacker node proven by the rule with zone Z_N ⊆ Z: K' is in
//!   Fam(K, Z_N), and the lemma below applies.
//!
//! **Lemma (the rule).** If N is proven by the rule with zone Z, the
//! attacker loses at every N' in Fam*(N, Z): the positions of Fam(N, Z)
//! with any number of passes just played, and whose attacker ko ban on Z
//! is N's (a ban the ko model lets the attacker ignore counts as none) or,
//! when the ko model favours the defender and N has no pseudo-child, none
//! or on a point of Z that starts a ko loop at N. Every line of the game
//! is finite (the rules cut it at the depth limit, for the defender), and
//! every end but a capture is a defender win; so it is enough to give a
//! strategy for the defender after which the target is never captured.
//! Against each attacker move at N':
//!
//! * the pass: the defender passes back, and two passes end the game (or
//!   the pass ends it at once);
//! * q in Z that starts a ko loop at N, legal in N': it takes the same
//!   stone as at N (q's defender neighbours are read whole), leaves its
//!   stone with the same one liberty d (q's neighbours are read), and the
//!   defender retakes at d (favoured, so the ban q left does not bind;
//!   not a suicide, as it captures): d's neighbouring blocks are read
//!   whole, so it takes back the stone q alone and leaves a ban on q.
//!   The position is again in Fam*(N, Z), at the same stones;
//! * any other q in Z: if q is legal in N' it is legal in N (q is not
//!   N's ban, which is on a loop or kept on Z; a suicide in N stays one,
//!   as its neighbours and their blocks are read, and the defender blocks
//!   around its attacker neighbours too, so none of them gains a liberty).
//!   So q was refuted with a proof of zone in Z. q's defender neighbours
//!   are read whole, so q captures the same blocks; when it captures, its
//!   neighbours are read too, so the ko ban it leaves is the same as in N.
//!   The child of N' is in the family of the child of N: Transfer;
//! * m outside Z: the defender passes. A block m captures has no stone in
//!   Z (a defender stone in Z belongs to a block read whole at some node,
//!   whose liberties in N are then in Z or occupied by moves of the tree,
//!   in Z; m, its last liberty, is neither), so the position after the
//!   pass, with no ko ban and a pass just played, is again in Fam*(N, Z)
//!   when N has no pseudo-child. A ko ban that m leaves on the defender is
//!   lifted by the pass, which is always legal. When N has a pseudo-child
//!   the defender does not pass: N' + m is in Fam(N°, Z°) (Z° ⊆ Z, the
//!   zone of the defender's proof at N°, the defender to move there as
//!   here; m and what it captures lie outside Z, N' differs from N only
//!   outside Z, N° has no pass just played and no ban, and a ban m leaves
//!   is on a point it captured, outside Z), and the defender plays the
//!   proof of N°, by Transfer. (Answering the far move, a possible ko
//!   threat, by ending the ko is what the pseudo-child lets the defender
//!   do; an earlier version made it pass, `kozone`.)
//!
//! So every line the strategy allows stays in Fam*(N, Z) (the target
//! stands there: its block is in Z), or enters a transferred proof, where
//! the defender wins. The ko loop may return to the
//! same stones forever: such a line ends by repetition or at the depth
//! limit, for the defender, whatever the path.
//!
//! Both arguments hold for every path: the proofs have no cut leaf, and a
//! line cut in K' (a repetition, the depth limit) is a defender win. They
//! hold under the search's ko model, and under every model when no node of
//! the proofs had a ko ban for its mover (a node with one sets `KO`, and
//! the far lines need no ban): the `KO` flag of the node is that of its
//! listed children and pseudo-child, as for any lost node (a node with a
//! ko loop has a ban or reads one: the loop holds only under the model
//! that favours the defender, and a result resting on it carries `KO`
//! through the node's own ban or the children around the ko). Its `PATH_DEP`
//! flag is theirs too, so a node that listed a cut line is never stored,
//! and keeps no zone. Proofs and zones rest only on results stored
//! earlier, so the induction runs over the order of storing, as for the
//! table (see the parent module); N° searched below N cannot use N's own
//! result, which is not stored yet (and N itself repeats there).
//!
//! # Storage
//!
//! A zone is kept in a side table next to the transposition table, by the
//! same key, written where the table stores a solved defender win without
//! `PATH_DEP`. A child's zone is read there (or, for a leaf, computed from
//! its position) when the parent closes its zone; when it is missing, the
//! parent takes the whole board. Slots are overwritten freely: a lost zone
//! costs a full-width node, never a wrong one.

use super::frame::Frame;
use super::search::Search;
use crate::go::board::{Board, Point, PASS};
use crate::tactics::rules::MAX_DEPTH;
use crate::tactics::zone::Zone;

/// The fixed point of an attacker node's frame cut to its zone while it is
/// built (see the module documentation). Kept by level in the search, not
/// in the frame ([`Frame::fix`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Closure {
    /// The attacker is under a ko ban: the frame has the pseudo-child
    /// [`NULL_MOVE`](super::kozone::NULL_MOVE), whose zone joins the node's.
    pub ko: bool,
    /// The zone was seeded (target block and the pass's zone).
    seeded: bool,
    /// A child's zone was unknown: the zone is the whole board.
    pub full: bool,
    /// A point of the zone starts a ko loop: the node's loss rests on the
    /// ko model's favour to the defender, and carries `KO`.
    pub looped: bool,
    /// The moves listed (explicit children, legal or not).
    pub listed: Zone,
    /// The moves the zone's growth listed (after the explicit ones).
    pub grown: Zone,
    /// The zone so far.
    pub zone: Zone,
    /// Points of the zone already taken into account.
    done: Zone,
}

impl Closure {
    /// The fixed point of a frame just cut to its zone; `ko`: the
    /// attacker is under a ko ban (the frame has the pseudo-child).
    pub fn start(ko: bool) -> Closure {
        Closure {
            ko,
            ..Closure::default()
        }
    }
}

/// The per-level array of fixed points: one per possible length of the
/// ancestor stack (see [`Frame::level`]).
pub const CLOSURE_LEVELS: usize = MAX_DEPTH + 3;

impl Search<'_> {
    /// The fixed point of frame `f`, an attacker node cut to its zone.
    #[inline]
    pub(super) fn closure(&mut self, f: &Frame) -> &mut Closure {
        debug_assert!(f.fix, "only a frame cut to its zone has a fixed point");
        &mut self.closures[f.level as usize]
    }

    /// Whether the current node, the attacker to move, may be cut to its
    /// zone: no ko ban binds the attacker (none, or the ko model lets it
    /// retake; see the module documentation).
    /// `Some(ko)` when the rule applies, `ko` when a ban binds the
    /// attacker (the frame then needs the pseudo-child [`NULL_MOVE`](super::kozone::NULL_MOVE)).
    pub(super) fn zone_rule_applies(&self, no_pass: bool) -> Option<bool> {
        let g = &self.game;
        let on = self.fixpoint && !self.zone_off && !no_pass && !self.ladder;
        (on && g.to_move() == self.attacker).then(|| {
            g.board().ko_point(self.attacker).is_some() && g.model().favoured != Some(self.attacker)
        })
    }

    /// Counts why the zone of the attacker's move `q` is unknown: the
    /// child is solved in the table but without a zone (its own proof had
    /// a node searched full width, or the zone was overwritten), or it is
    /// not (a result resting on the path, or lost from the table).
    fn count_child_failure(&mut self, q: Point) {
        self.stats.fix_fail_child += 1;
        if self.play(q) {
            let key = self.key();
            let stored = self.tt.probe(key).is_some_and(|e| e.is_solved());
            self.stats.fix_fail_child_stored += stored as u64;
            self.undo();
        }
    }

    /// Whether a node lost by the rule left out a legal attacker move
    /// (for the statistics and the tests that the rule prunes).
    pub(super) fn zone_pruned(&self, c: &Closure) -> bool {
        if c.full {
            return false;
        }
        let g = &self.game;
        let size = g.board().size();
        (0..size * size).any(|i| {
            let p = Board::point_at(i % size, i / size);
            g.board().is_empty(p) && !c.zone.contains(p) && g.is_legal(p)
        })
    }

    /// Called when every listed child of a zone-cut attacker node is lost:
    /// grows the zone (see the module documentation) and returns the empty
    /// points of it the attacker may play that are not listed yet, written
    /// to the move list; none means the fixed point is reached and the
    /// node is lost. When a child's zone is unknown it sets `c.full` and
    /// stops: the node must be searched full width.
    pub(super) fn close_zone(&mut self, c: &mut Closure) -> usize {
        if !c.seeded {
            c.seeded = true;
            c.zone = self.target_zone();
            let mut seed = self.child_zone(PASS);
            if c.ko && !c.full {
                // The pseudo-child is lost: its zone holds the far moves.
                let z = if self.play_null_move() {
                    let z = self.node_zone();
                    self.undo();
                    z
                } else {
                    None
                };
                seed = seed.zip(z).map(|(mut a, b)| {
                    a.union(&b);
                    a
                });
            }
            match seed {
                Some(z) => c.zone.union(&z),
                None => {
                    c.full = true;
                    self.stats.fix_fail_seed += 1;
                }
            }
        }
        if c.full {
            return 0;
        }
        self.moves.clear();
        // Listed by this call, not searched yet.
        let mut fresh = Zone::new();
        loop {
            let mut todo = c.zone;
            todo.subtract(&c.done);
            todo.subtract(&fresh);
            let mut grew = false;
            for q in todo.iter() {
                let b = self.game.board();
                if !b.is_empty(q) {
                    c.done.insert(q);
                    continue;
                }
                let legal = self.game.is_legal(q);
                // Asked once: the loop check plays on the board.
                let looped = self.ko_loop(q);
                if legal && !c.listed.contains(q) && looped.is_none() {
                    // Searched first; its zone comes in once it is lost.
                    c.listed.insert(q);
                    c.grown.insert(q);
                    fresh.insert(q);
                    self.moves.push(q);
                    continue;
                }
                c.done.insert(q);
                let mut z = Zone::new();
                if let Some(reads) = looped {
                    // Refuted by the defender's retake (no child).
                    self.stats.fix_loops += 1;
                    c.looped = true;
                    z = reads;
                } else if !legal && self.game.board().ko_point(self.attacker) == Some(q) {
                    // Banned (a retake is a capture, never a suicide): on
                    // Z the ban is the node's throughout its family.
                    z.insert(q);
                } else if !legal {
                    self.illegal_reads(q, &mut z);
                } else {
                    self.attacker_reads(q, &mut z);
                    match self.child_zone(q) {
                        Some(cz) => z.union(&cz),
                        None => {
                            c.full = true;
                            self.count_child_failure(q);
                            return 0;
                        }
                    }
                }
                let before = c.zone;
                c.zone.union(&z);
                grew |= c.zone != before;
            }
            if !grew {
                break;
            }
        }
        self.moves.len()
    }
}
