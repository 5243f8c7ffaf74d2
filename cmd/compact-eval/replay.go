package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
	"io"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/tmc/langchaingo/llms"
)

// callRecord is what one model call of a replay sent.
type callRecord struct {
	msgIndex   int  // index of the assistant message the call answers
	origTokens int  // tokens of the conversation so far (what "none" sends)
	sent       int  // tokens sent
	cached     int  // tokens of the leading messages shared with the previous call's
	stable     bool // the previous call's messages are a prefix of this call's
	compacted  bool // the strategy rewrote or removed context it had sent before
	overBudget bool // sent > budget
	pairErr    bool // the messages sent violate tool pairing (compact.CheckToolPairs)
	failed     bool // the strategy returned an error; nothing was sent
	sumCalls   int  // summarizer model calls made for this call
	sumIn      int  // their prompt tokens
	sumOut     int  // their reply tokens
	sumCached  int  // prompt tokens of the summarizer calls served by the provider's prefix cache
	overWindow bool // sent > window: a provider rejects the request, so the call keeps nothing
	needed     int  // used-later tokens the call needed (usedlater.go)
	keptLater  int  // of them, present in what was sent (0 for a failed or rejected call)
	missedAI   int  // of the missed ones, those last seen in an assistant message
}

// replayOpts are the optional inputs of a replay: the used-later needs of
// the trajectory (computed when nil) and where to write the dump of what
// each call sent (-dump; nil = none).
type replayOpts struct {
	needs laterNeeds
	dump  io.Writer
}

// dumpLine is one line of a -dump file: the index of the assistant message
// the call answers and the messages sent, in the trajectory format.
type dumpLine struct {
	Answers  int       `json:"answers"`
	Messages []dumpMsg `json:"messages"`
	// Rejected says why nothing reached the model: the strategy failed, or
	// its request exceeded the window.
	Rejected string `json:"rejected,omitempty"`
}

// runResult is the replay of one trajectory with one strategy at one window.
type runResult struct {
	file     string
	strategy string
	window   int
	budget   int
	calls    []callRecord
	ret      retention // at the last call
	firstErr string    // the first error of the strategy, if any
	recall   recallStats
	dumpErr  error // the first error writing the dump
	sumScale float64
}

// cmpErr returns the first of a and b that is not nil.
func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// replayRun replays msgs with st: one model call per assistant message,
// whose input is the conversation before it; the real assistant message
// and tool results then follow from the file, whatever the call returned.
// tick is called after each call.
func replayRun(ctx context.Context, file string, msgs []llms.MessageContent, st strategy, window int, counter *budget.TokenCounter, tick func()) runResult {
	return replayRunOpts(ctx, file, msgs, st, window, counter, tick, replayOpts{})
}

// replayRunOpts is replayRun with opts.
func replayRunOpts(ctx context.Context, file string, msgs []llms.MessageContent, st strategy, window int, counter *budget.TokenCounter, tick func(), opts replayOpts) runResult {
	if opts.needs == nil {
		opts.needs = usedLaterNeeds(msgs)
	}
	var enc *json.Encoder
	if opts.dump != nil {
		enc = json.NewEncoder(opts.dump)
		enc.SetEscapeHTML(false)
	}
	res := runResult{file: file, strategy: st.name, window: window, budget: st.budget, sumScale: st.sumScale}
	snd := st.newRun(file)
	meter := &sumMeter{}
	ctx = withMeter(ctx, meter)
	var prev []llms.MessageContent
	havePrev := false
	last := -1
	var lastSent []llms.MessageContent
	var rr *recallRun
	if r, ok := snd.(recallable); ok {
		rr = newRecallRun(file, r)
	}
	var lastIn []llms.MessageContent
	var lastRes *compact.Result
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role != llms.ChatMessageTypeAI {
			continue
		}
		if ctx.Err() != nil {
			break // the caller reports the interruption
		}
		in := msgs[:i:i] // a strategy that appends cannot write into msgs
		c0, in0, out0, ca0 := meter.snapshot()
		sent, info, err := snd.send(ctx, in)
		c1, in1, out1, ca1 := meter.snapshot()
		rec := callRecord{msgIndex: i, origTokens: counter.CountMessages(in),
			sumCalls: c1 - c0, sumIn: in1 - in0, sumOut: out1 - out0, sumCached: ca1 - ca0}
		need := opts.needs[i]
		rec.needed = len(need.tokens)
		if err != nil {
			if enc != nil {
				res.dumpErr = cmpErr(res.dumpErr, enc.Encode(dumpLine{Answers: i, Messages: []dumpMsg{}, Rejected: "error: " + err.Error()}))
			}
			rec.failed = true
			if res.firstErr == "" {
				res.firstErr = fmt.Sprintf("call at message %d: %v", i, err)
			}
			res.calls = append(res.calls, rec)
			if tick != nil {
				tick()
			}
			continue
		}
		rec.sent = counter.CountMessages(sent)
		rec.compacted = info.compacted
		rec.overBudget = rec.sent > st.budget
		rec.pairErr = compact.CheckToolPairs(sent) != nil
		rec.overWindow = rec.sent > window
		lines := toDump(sent)
		if rec.overWindow {
			rec.missedAI = len(need.tokens)
			for k := range need.tokens {
				if need.lastRole[k] != "assistant" {
					rec.missedAI--
				}
			}
			if enc != nil {
				res.dumpErr = cmpErr(res.dumpErr, enc.Encode(dumpLine{Answers: i, Messages: []dumpMsg{}, Rejected: "over the window"}))
			}
		} else {
			if len(need.tokens) > 0 {
				rec.keptLater, rec.missedAI = keptLater(need, sentText(lines))
			}
			if enc != nil {
				res.dumpErr = cmpErr(res.dumpErr, enc.Encode(dumpLine{Answers: i, Messages: lines}))
			}
		}
		if havePrev {
			p := commonPrefix(prev, sent)
			rec.stable = p == len(prev)
			for _, m := range sent[:p] {
				rec.cached += counter.CountMessage(m)
			}
		}
		prev, havePrev = sent, true
		meter.setLastSent(sent)
		last, lastSent, lastIn = i, sent, in
		if rr != nil {
			lastRes = rr.result(ctx, i, sent)
			rr.checked = false
			if lastRes != nil {
				rr.stats.refTokens += int64(refTokens(counter, lastRes))
				if rr.newOriginals(lastRes) {
					rr.check(ctx, i, in, sent, lastRes, true, false)
					rr.checked = true
				}
			}
		}
		res.calls = append(res.calls, rec)
		if tick != nil {
			tick()
		}
	}
	if last >= 0 {
		if len(res.calls) > 0 && res.calls[len(res.calls)-1].overWindow {
			lastSent = nil // rejected by the provider: nothing of it reached the model
		}
		res.ret = measureRetention(msgs[:last], lastSent)
	}
	if rr != nil {
		if lastRes != nil && ctx.Err() == nil {
			rr.check(ctx, last, lastIn, lastSent, lastRes, !rr.checked, true)
		}
		res.recall = rr.finish()
	}
	return res
}

// commonPrefix returns the number of leading messages a and b share.
func commonPrefix(a, b []llms.MessageContent) int {
	n := 0
	for n < len(a) && n < len(b) && msg.Equal(a[n], b[n]) {
		n++
	}
	return n
}
