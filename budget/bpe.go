package budget

import (
	"container/heap"
	"math"
)

// bpeHeapMin is the piece length from which bpeCount merges with a heap
// (O(n log n)) instead of rescanning all pairs per merge (O(n^2), faster for
// the short pieces that make up nearly all text).
const bpeHeapMin = 128

// bpeCount returns how many tokens byte-pair encoding turns piece into,
// merging the lowest-ranked adjacent pair first (leftmost on ties), as
// tiktoken-go's bytePairEncode does.
func bpeCount(piece string, ranks map[string]int) int {
	switch {
	case len(piece) <= 1:
		return len(piece)
	case len(piece) >= bpeHeapMin:
		return bpeCountHeap(piece, ranks)
	}
	return bpeCountScan(piece, ranks)
}

// bpePart is a part of a piece: where it starts and the rank of merging it
// with the next part (math.MaxInt if that pair is not a token).
type bpePart struct {
	start, rank int
}

func bpeCountScan(piece string, ranks map[string]int) int {
	var buf [bpeHeapMin + 1]bpePart
	parts := buf[:len(piece)+1]
	for i := range parts {
		parts[i] = bpePart{start: i, rank: math.MaxInt}
	}
	rank := func(i int) int { // rank of parts i..i+1 merged
		if i+2 < len(parts) {
			if r, ok := ranks[piece[parts[i].start:parts[i+2].start]]; ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = rank(i)
	}
	for len(parts) > 1 {
		minRank, minIdx := math.MaxInt, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i].rank < minRank {
				minRank, minIdx = parts[i].rank, i
			}
		}
		if minIdx < 0 {
			break
		}
		i := minIdx
		copy(parts[i+1:], parts[i+2:])
		parts = parts[:len(parts)-1]
		parts[i].rank = rank(i)
		if i > 0 {
			parts[i-1].rank = rank(i - 1)
		}
	}
	return len(parts) - 1
}

// pairHeap orders candidate merges by rank, then by position.
type pairHeap []bpePart

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(i, j int) bool {
	return h[i].rank < h[j].rank || (h[i].rank == h[j].rank && h[i].start < h[j].start)
}
func (h pairHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(bpePart)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// bpeCountHeap is bpeCountScan with a doubly linked list of parts and a
// heap of candidate merges; stale heap entries are skipped.
func bpeCountHeap(piece string, ranks map[string]int) int {
	n := len(piece)
	next := make([]int, n+1) // next[start] = start of the following part
	prev := make([]int, n+1)
	rank := make([]int, n+1) // current merge rank of the part at start
	alive := make([]bool, n+1)
	for i := 0; i <= n; i++ {
		next[i], prev[i], rank[i], alive[i] = i+1, i-1, math.MaxInt, true
	}
	pairRank := func(a int) int { // rank of the part at a merged with its next
		b := next[a]
		if b >= n {
			return math.MaxInt
		}
		if r, ok := ranks[piece[a:next[b]]]; ok {
			return r
		}
		return math.MaxInt
	}
	h := make(pairHeap, 0, n)
	for i := 0; i < n-1; i++ {
		if r := pairRank(i); r != math.MaxInt {
			rank[i] = r
			h = append(h, bpePart{start: i, rank: r})
		}
	}
	heap.Init(&h)
	count := n
	for h.Len() > 0 {
		top := heap.Pop(&h).(bpePart)
		a := top.start
		if !alive[a] || rank[a] != top.rank {
			continue // stale
		}
		b := next[a]
		alive[b] = false
		next[a] = next[b]
		prev[next[b]] = a
		count--
		if r := pairRank(a); r != rank[a] {
			rank[a] = r
			if r != math.MaxInt {
				heap.Push(&h, bpePart{start: a, rank: r})
			}
		}
		if p := prev[a]; p >= 0 {
			if r := pairRank(p); r != rank[p] {
				rank[p] = r
				if r != math.MaxInt {
					heap.Push(&h, bpePart{start: p, rank: r})
				}
			}
		}
	}
	return count
}
