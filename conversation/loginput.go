package conversation

import (
	"sort"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// Input is the input of one engine call over a [Log]'s first N
// messages: the window's messages the call is given (all of them, or from
// a turn start From on besides the leading system messages), their ids,
// and how many of the N messages it leaves out. Give it to the engine with
// its [Input.Options].
type Input struct {
	// Messages and IDs are the messages the call is given and their ids in
	// the whole conversation, index for index. The Log never writes
	// them in place (a later Input given them as its buffer does); the
	// caller must not modify them.
	Messages []llms.MessageContent
	IDs      []string
	// N is the number of the Log's messages the input stands for, From
	// the turn start it was built from (0: the whole window), Omitted the
	// messages below N it leaves out (N - len(Messages)).
	N, From, Omitted int
}

// Options returns the call options that tell the engine the input's ids
// and omitted messages ([compact.WithMessageIDs], [compact.WithOmitted]).
func (in Input) Options() []compact.CallOption {
	return []compact.CallOption{compact.WithMessageIDs(in.IDs), compact.WithOmitted(in.Omitted)}
}

// Input returns the input of an engine call over every message held, from
// the turn start from (0: the whole window; see [Log.TurnStart]). When
// it is the whole window, its slices are the window's own (not copied);
// otherwise they are built in buf's slices when buf is not nil and they
// are large enough (the caller then owns buf's previous input no longer),
// else in new ones.
func (h *Log) Input(from int, buf *Input) Input {
	n := len(h.msgs)
	in := Input{N: n, From: from}
	// The window is lead | kept | start..n-1; the input skips the kept
	// positions and the positions from start on that lie below from.
	kb, sb := h.lead, h.lead+len(h.kept)
	segs := [3][2]int{{0, h.lead}, {kb + sort.SearchInts(h.kept, from), sb}, {sb + max(0, from-h.start), len(h.win)}}
	size := 0
	for _, s := range segs {
		size += max(0, s[1]-s[0])
	}
	in.Omitted = n - size
	if size == len(h.win) {
		in.Messages, in.IDs = h.win[:size:size], h.winIDs[:size:size]
		return in
	}
	if buf != nil && cap(buf.Messages) >= size && cap(buf.IDs) >= size {
		in.Messages, in.IDs = buf.Messages[:0], buf.IDs[:0]
	} else {
		in.Messages = make([]llms.MessageContent, 0, size+size/4)
		in.IDs = make([]string, 0, size+size/4)
	}
	for _, s := range segs {
		if s[1] > s[0] {
			in.Messages = append(in.Messages, h.win[s[0]:s[1]]...)
			in.IDs = append(in.IDs, h.winIDs[s[0]:s[1]]...)
		}
	}
	if buf != nil {
		*buf = in
	}
	return in
}

// Positions returns the position in the conversation of each message of
// in, index for index: what the engine's input index i (a Result's States,
// Refs and Origin) stands for. Call it before [Log.Advance] moves the
// window. The slice is shared with later calls' results (which only
// append beyond its length): the caller must not modify it. A call that
// extends the last one (the same window and turn start, more messages)
// costs the new messages only.
func (h *Log) Positions(in Input) []int {
	c := &h.pos
	if c.wgen != h.wgen || c.from != in.From || in.N < c.n {
		*c = positionsCache{wgen: h.wgen, from: in.From, pos: make([]int, 0, len(in.Messages)+len(in.Messages)/4)}
		for i := range h.Window(in.N, in.From) {
			c.pos = append(c.pos, i)
		}
	} else {
		for i := max(c.n, h.start, in.From); i < in.N; i++ {
			c.pos = append(c.pos, i)
		}
	}
	c.n = in.N
	return c.pos[:len(c.pos):len(c.pos)]
}

// positionsCache is the last result of [Log.Positions], for the window of
// generation wgen from turn start from, over the first n messages. While
// wgen holds, lead and start do not change and n >= start, so the
// positions of a longer input are these and those from n on.
type positionsCache struct {
	pos        []int
	wgen, from int
	n          int
}
