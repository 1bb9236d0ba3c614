//! The compact tree store of the best-first solvers (PNS, PN², PP, PPT,
//! PP², MCTS-Solver), after seed 003 ("Proof Number search: variants and
//! refinements", section "Efficient tree representations"):
//!
//! * nodes live in one flat array and are named by 32-bit ids;
//! * a node holds its value (8 bytes: proof and disproof numbers, a
//!   probability, or visit statistics), where its children start, how many
//!   there are, and flags: 16 bytes;
//! * the children of a node are one contiguous run of *edges*; an edge is
//!   the child's id and the move that leads to it (4 + `size_of::<Move>()`
//!   bytes, kept in two parallel arrays so that a one-byte move costs one
//!   byte). In a tree, a node's children are also consecutive nodes; in a
//!   DAG (transpositions) an edge may point to a node created elsewhere;
//! * positions are not stored: the solver replays the edges' moves from the
//!   root while it descends, and undoes them on the way back, so the path
//!   from the root is the only parent link (no parent ids either).
//!
//! Per tree node that is 16 + 4 + 1 = 21 bytes for Domineering and NoGo
//! (one-byte moves); [`Store::new`] asserts at most 24 bytes per node.
//!
//! Everything is reserved once, at setup, from a byte budget (the solver's
//! [`Limits::memory`](super::Limits)): `Vec::with_capacity` never grows
//! afterwards, and a solver that would need more nodes stops with
//! [`Stopped::Memory`](super::Stopped). Untouched capacity costs no physical
//! memory (the kernel maps pages on first write), so a large budget is
//! cheap for small searches; [`Store::bytes_used`] counts what is used.
//!
//! The transposition variants (PNS with transpositions, PPT) also need a
//! map from position key to node id: [`Table`], open addressing with
//! linear probing over a fixed power-of-two array, allocated zeroed once
//! and never resized. It stores the full 64-bit key, so two positions
//! share a node only if their Zobrist keys collide completely.

use std::mem::size_of;

/// A node's name: its index in the store.
pub type NodeId = u32;

/// Flag: the node's children have been created.
pub const EXPANDED: u16 = 1;
/// Flag: the player to move at the node wins (proven).
pub const WON: u16 = 2;
/// Flag: the player to move at the node loses (proven).
pub const LOST: u16 = 4;

/// One node: 16 bytes when `V` is 8 bytes with 4-byte alignment.
#[derive(Clone, Copy, Debug)]
pub struct Node<V: Copy> {
    pub value: V,
    /// Index of the first edge of the children's run.
    pub first: u32,
    /// Number of children (0 until expanded, and for terminal nodes).
    pub len: u16,
    pub flags: u16,
}

impl<V: Copy> Node<V> {
    pub fn new(value: V, flags: u16) -> Node<V> {
        Node {
            value,
            first: 0,
            len: 0,
            flags,
        }
    }

    pub fn solved(&self) -> bool {
        self.flags & (WON | LOST) != 0
    }
}

/// Most bytes one tree node may take (node, edge and move): seed 003's
/// layout is 20 bytes; the issue allows 24.
pub const MAX_NODE_BYTES: usize = 24;

/// Nodes and edges, reserved once.
pub struct Store<V: Copy, M: Copy> {
    pub nodes: Vec<Node<V>>,
    pub edge_child: Vec<NodeId>,
    pub edge_move: Vec<M>,
    node_cap: usize,
    edge_cap: usize,
    peak: usize,
}

impl<V: Copy, M: Copy> Store<V, M> {
    /// Bytes of one node's record.
    pub const NODE_BYTES: usize = size_of::<Node<V>>();
    /// Bytes of one edge (child id and move).
    pub const EDGE_BYTES: usize = size_of::<NodeId>() + size_of::<M>();

    /// A store for as many nodes as `bytes` holds when each node has
    /// `edges_per_node` edges on average (1 in a tree; more in a DAG, where
    /// several edges lead to one node), and at most `max_nodes`.
    pub fn new(bytes: usize, edges_per_node: usize, max_nodes: usize) -> Store<V, M> {
        assert!(
            Self::NODE_BYTES + Self::EDGE_BYTES <= MAX_NODE_BYTES,
            "tree node of {} bytes",
            Self::NODE_BYTES + Self::EDGE_BYTES
        );
        let per_node = Self::NODE_BYTES + edges_per_node * Self::EDGE_BYTES;
        // 32-bit ids: the last id is never used, so `u32::MAX` can mean none.
        let node_cap = (bytes / per_node).min(max_nodes).clamp(1, u32::MAX as usize - 1);
        let edge_cap = node_cap.saturating_mul(edges_per_node);
        Store {
            nodes: Vec::with_capacity(node_cap),
            edge_child: Vec::with_capacity(edge_cap),
            edge_move: Vec::with_capacity(edge_cap),
            node_cap,
            edge_cap,
            peak: 0,
        }
    }

    /// Forgets every node (keeps the reservation).
    pub fn clear(&mut self) {
        self.note_peak();
        self.nodes.clear();
        self.edge_child.clear();
        self.edge_move.clear();
    }

    pub fn node_capacity(&self) -> usize {
        self.node_cap
    }

    /// Whether `nodes` more nodes and `edges` more edges fit.
    pub fn fits(&self, nodes: usize, edges: usize) -> bool {
        self.nodes.len() + nodes <= self.node_cap && self.edge_child.len() + edges <= self.edge_cap
    }

    /// Adds a node (the caller checked [`Store::fits`]).
    #[inline]
    pub fn push_node(&mut self, node: Node<V>) -> NodeId {
        debug_assert!(self.nodes.len() < self.node_cap);
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    /// Adds an edge (the caller checked [`Store::fits`]).
    #[inline]
    pub fn push_edge(&mut self, child: NodeId, m: M) {
        debug_assert!(self.edge_child.len() < self.edge_cap);
        self.edge_child.push(child);
        self.edge_move.push(m);
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<V> {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<V> {
        &mut self.nodes[id as usize]
    }

    /// Bytes of nodes and edges in use now.
    pub fn bytes_used(&self) -> usize {
        self.nodes.len() * Self::NODE_BYTES + self.edge_child.len() * Self::EDGE_BYTES
    }

    /// Records the current use in the peak.
    pub fn note_peak(&mut self) {
        self.peak = self.peak.max(self.bytes_used());
    }

    /// Most bytes used since creation.
    pub fn peak(&self) -> usize {
        self.peak.max(self.bytes_used())
    }
}

/// Fixed-size map from position key to node id (open addressing, linear
/// probing). A slot is empty when its id is 0: node 0 is always the root,
/// which is never looked up (a DAG of an acyclic game never leads back to
/// its root), so id 0 is free to mean "none".
pub struct Table {
    keys: Vec<u64>,
    ids: Vec<NodeId>,
    mask: usize,
    len: usize,
}

impl Table {
    /// Bytes of one slot.
    pub const SLOT_BYTES: usize = size_of::<u64>() + size_of::<NodeId>();

    /// A table of `slots` slots (a power of two), for `slots / 2` entries.
    pub fn new(slots: usize) -> Table {
        assert!(slots.is_power_of_two() && slots >= 2);
        Table {
            // Zeroed allocations: the kernel maps the pages on first use.
            keys: vec![0; slots],
            ids: vec![0; slots],
            mask: slots - 1,
            len: 0,
        }
    }

    /// Slots for a byte budget (a power of two, at least 1).
    pub fn slots_for(bytes: usize) -> usize {
        let slots = (bytes / Self::SLOT_BYTES).max(2);
        1 << (usize::BITS - 1 - slots.leading_zeros())
    }

    /// Empties the table (touches every used page once).
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.ids.fill(0);
            self.keys.fill(0);
            self.len = 0;
        }
    }

    pub fn bytes(&self) -> usize {
        self.ids.len() * Self::SLOT_BYTES
    }

    /// The node stored under `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<NodeId> {
        let mut i = (key as usize) & self.mask;
        loop {
            let id = self.ids[i];
            if id == 0 {
                return None;
            }
            if self.keys[i] == key {
                return Some(id);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Whether one more entry keeps the load at most one half.
    pub fn has_room(&self) -> bool {
        self.has_room_for(1)
    }

    /// Whether `k` more entries keep the load at most one half.
    pub fn has_room_for(&self, k: usize) -> bool {
        (self.len + k) * 2 <= self.ids.len()
    }

    /// Stores `id` (never 0) under `key`, which must not be present.
    #[inline]
    pub fn insert(&mut self, key: u64, id: NodeId) {
        debug_assert!(id != 0 && self.has_room());
        let mut i = (key as usize) & self.mask;
        while self.ids[i] != 0 {
            i = (i + 1) & self.mask;
        }
        self.keys[i] = key;
        self.ids[i] = id;
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_layout_is_compact() {
        assert_eq!(size_of::<Node<[u32; 2]>>(), 16);
        assert_eq!(size_of::<Node<[f32; 2]>>(), 16);
        assert!(Store::<[u32; 2], u8>::NODE_BYTES + Store::<[u32; 2], u8>::EDGE_BYTES <= 24);
        assert!(Store::<[u32; 2], u16>::NODE_BYTES + Store::<[u32; 2], u16>::EDGE_BYTES <= 24);
    }

    #[test]
    fn store_stops_at_its_budget() {
        let mut s: Store<[u32; 2], u8> = Store::new(21 * 10, 1, usize::MAX);
        assert_eq!(s.node_capacity(), 10);
        assert!(s.fits(10, 10));
        assert!(!s.fits(11, 1));
        for i in 0..10 {
            s.push_node(Node::new([i, i], 0));
            s.push_edge(i, i as u8);
        }
        assert_eq!(s.bytes_used(), 210);
        assert!(!s.fits(1, 0));
        s.clear();
        assert!(s.fits(10, 10));
        assert_eq!(s.peak(), 210);
    }

    #[test]
    fn table_finds_what_it_stores() {
        let mut t = Table::new(256);
        for k in 1..=100u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            assert_eq!(t.get(key), None);
            t.insert(key, k as NodeId);
        }
        for k in 1..=100u64 {
            assert_eq!(t.get(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)), Some(k as NodeId));
        }
        assert_eq!(t.get(12345), None);
        t.clear();
        assert_eq!(t.get(0x9E37_79B9_7F4A_7C15), None);
        assert_eq!(Table::slots_for(1000), 64);
    }
}
