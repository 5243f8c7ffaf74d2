package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/recallcheck"
	"github.com/agentcompact/compact/internal/refid"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// recallable is a sender of ours: it compacts losslessly, and its run has a
// recall tool.
type recallable interface {
	// lastResult returns the compact.Result of the last successful call:
	// what was sent, and what became of each input message.
	lastResult(ctx context.Context) (*compact.Result, error)
	// recall calls the run's recall tool with input, in the run's session.
	recall(ctx context.Context, input string) (string, error)
}

// maxRecallFailures is how many recall failures a run, and a row, list.
const maxRecallFailures = 5

// recallFailure is one original that did not come back.
type recallFailure struct {
	file  string
	call  int // index of the assistant message the call answers
	ref   string
	state compact.MessageState
	how   string // "ref", "search" or "result"
	err   string
}

func (f recallFailure) String() string {
	ref := ""
	if f.ref != "" {
		ref = fmt.Sprintf(", ref:%s (%s)", f.ref, f.state)
	}
	return fmt.Sprintf("%s, call at message %d%s, by %s: %s", f.file, f.call, ref, f.how, f.err)
}

// recallStats is the recall coverage of one run, or of a row of runs.
type recallStats struct {
	measured   bool            // the strategy compacts losslessly (ours)
	originals  int             // distinct originals compacted at a checkpoint
	byRef      int             // of which every check by ref brought the text back whole
	searchable int             // of which had a line to search for at the last call
	bySearch   int             // of which every search for such a line named the original
	checks     int             // checkpoints (calls whose originals were checked by ref)
	failed     int             // checks that failed
	failures   []recallFailure // the first ones, one per original and way
	refTokens  int64           // tokens of ref markers and recall hints, over all calls
}

func (s *recallStats) add(o recallStats) {
	s.measured = s.measured || o.measured
	s.originals += o.originals
	s.byRef += o.byRef
	s.searchable += o.searchable
	s.bySearch += o.bySearch
	s.checks += o.checks
	s.failed += o.failed
	s.refTokens += o.refTokens
	for _, f := range o.failures {
		if len(s.failures) < maxRecallFailures {
			s.failures = append(s.failures, f)
		}
	}
}

// originalCheck is what the checks found of one original in a run.
type originalCheck struct {
	refFailed, searched, searchFailed bool
}

// recallRun checks the recall of one run's compacted originals. At every
// checkpoint (a call whose result compacts an original no earlier
// checkpoint saw, and the run's last call) each original the result does
// not show verbatim is asked for by its ref; between checkpoints the
// originals held, and so the answers, do not change. At the last call each
// is also searched for by a line of its own: then every original of the run
// is held, the most a search has to rank (searching at every checkpoint
// would cost a search of every held original per original).
type recallRun struct {
	file    string
	r       recallable
	seen    map[string]*originalCheck // by ref
	texts   []string                  // renderings of the input messages, by index
	folded  []string                  // their store.FoldCase
	stats   recallStats
	checked bool // the last call was a checkpoint
}

func newRecallRun(file string, r recallable) *recallRun {
	return &recallRun{file: file, r: r, seen: map[string]*originalCheck{}, stats: recallStats{measured: true}}
}

// fail counts a failed check and lists it, unless the same original
// failed the same way at an earlier checkpoint.
func (rr *recallRun) fail(f recallFailure) {
	rr.stats.failed++
	for _, g := range rr.stats.failures {
		if f.ref != "" && g.ref == f.ref && g.how == f.how {
			return
		}
	}
	if len(rr.stats.failures) < maxRecallFailures {
		rr.stats.failures = append(rr.stats.failures, f)
	}
}

// result returns the compact.Result of the call at message i, checked
// against what was sent, or nil after recording why there is none.
func (rr *recallRun) result(ctx context.Context, i int, sent []llms.MessageContent) *compact.Result {
	res, err := rr.r.lastResult(ctx)
	if err == nil && !sameMessages(res.Messages, sent) {
		err = fmt.Errorf("the result's %d messages are not the %d sent", len(res.Messages), len(sent))
	}
	if err == nil && (len(res.Refs) != len(res.States) || len(res.Origin) != len(res.Messages)) {
		err = fmt.Errorf("the result has %d refs for %d states and %d origins for %d messages", len(res.Refs), len(res.States), len(res.Origin), len(res.Messages))
	}
	if err != nil {
		rr.fail(recallFailure{file: rr.file, call: i, how: "result", err: err.Error()})
		return nil
	}
	return res
}

// newOriginals reports whether res compacts an original no checkpoint saw.
func (rr *recallRun) newOriginals(res *compact.Result) bool {
	for _, ref := range res.Refs {
		if ref != "" && rr.seen[ref] == nil {
			return true
		}
	}
	return false
}

// render returns the renderings of in (recall.OriginalOf), and their
// folded case, computed once per message of the run.
func (rr *recallRun) render(in []llms.MessageContent) {
	for k := len(rr.texts); k < len(in); k++ {
		t := recall.OriginalOf("", "", in[k]).Text
		rr.texts = append(rr.texts, t)
		rr.folded = append(rr.folded, store.FoldCase(t))
	}
}

// check checks every original res does not show verbatim, by ref (a
// masked or cut one must show its ref in the message sent for it; a
// summarized one shows none) and, with search, by a search for a line of
// its own, at the call at message i whose input was in and whose messages
// sent were sent.
func (rr *recallRun) check(ctx context.Context, i int, in, sent []llms.MessageContent, res *compact.Result, byRef, search bool) {
	if byRef {
		rr.stats.checks++
	}
	rr.render(in)
	var all, sentFolded string
	if search {
		all = strings.Join(rr.folded[:len(in)], "\x00")
		var sb strings.Builder
		for _, m := range sent {
			sb.WriteString(store.FoldCase(recall.OriginalOf("", "", m).Text))
			sb.WriteByte(0)
		}
		sentFolded = sb.String()
	}
	var shown map[int]string // what was sent for each input message, rendered
	if byRef {
		shown = map[int]string{}
		for j, o := range res.Origin {
			if o >= 0 && o < len(res.Refs) && res.Refs[o] != "" {
				shown[o] += recall.OriginalOf("", "", res.Messages[j]).Text + "\x00"
			}
		}
	}
	call := func(ctx context.Context, input string) (string, error) { return rr.r.recall(ctx, input) }
	for k, ref := range res.Refs {
		if ref == "" || k >= len(in) {
			continue
		}
		oc := rr.seen[ref]
		if oc == nil {
			oc = &originalCheck{}
			rr.seen[ref] = oc
		}
		failure := recallFailure{file: rr.file, call: i, ref: ref, state: res.States[k]}
		if byRef {
			if st := res.States[k]; st.InOutput() && !refid.Names(shown[k], ref) {
				oc.refFailed = true
				failure.how, failure.err = "ref", fmt.Sprintf("the %s message sent for it does not show ref:%s", st, ref)
				rr.fail(failure)
			} else if _, err := recallcheck.ByRef(ctx, call, ref, rr.texts[k]); err != nil {
				oc.refFailed = true
				failure.how, failure.err = "ref", err.Error()
				rr.fail(failure)
			}
		}
		if !search {
			continue
		}
		own := rr.folded[k]
		line, ok := recallcheck.SearchLine(rr.texts[k], func(l string) bool {
			f := store.FoldCase(l)
			return strings.Count(all, f) == strings.Count(own, f) && !strings.Contains(sentFolded, f)
		})
		if !ok {
			continue
		}
		oc.searched = true
		if err := recallcheck.BySearch(ctx, call, ref, line); err != nil {
			oc.searchFailed = true
			failure.how, failure.err = "search", err.Error()
			rr.fail(failure)
		}
	}
}

// finish returns the run's stats.
func (rr *recallRun) finish() recallStats {
	s := rr.stats
	for _, oc := range rr.seen {
		s.originals++
		if !oc.refFailed {
			s.byRef++
		}
		if oc.searched {
			s.searchable++
			if !oc.searchFailed {
				s.bySearch++
			}
		}
	}
	return s
}

// sameMessages reports whether a and b hold equal messages.
func sameMessages(a, b []llms.MessageContent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !msg.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// refTokens returns the tokens that ref markers and the summary's recall
// hint add to res.Messages: for each message that stands for a masked or
// cut input message, its tokens less those of the same message without its
// ref (" ref:ID" after a masked output's facts, ", ref:ID" in a cut
// marker); for the summary, its tokens less those without
// compact.RecallHint.
func refTokens(counter *budget.TokenCounter, res *compact.Result) int {
	n := 0
	for j, m := range res.Messages {
		var strip func(string) string
		switch o := res.Origin[j]; {
		case o >= 0 && o < len(res.Refs) && res.Refs[o] != "":
			ref := compact.RefPrefix + res.Refs[o]
			strip = func(s string) string {
				return strings.ReplaceAll(strings.ReplaceAll(s, ", "+ref, ""), " "+ref, "")
			}
		case o < 0:
			strip = func(s string) string {
				if strings.HasPrefix(s, compact.SummaryPreamble) {
					return strings.TrimSuffix(s, compact.RecallHint)
				}
				return s
			}
		default:
			continue
		}
		if bare, ok := stripParts(m, strip); ok {
			n += counter.CountMessage(m) - counter.CountMessage(bare)
		}
	}
	return n
}

// stripParts returns m with strip applied to its texts, tool outputs and
// tool call arguments, and whether that changed anything.
func stripParts(m llms.MessageContent, strip func(string) string) (llms.MessageContent, bool) {
	out := llms.MessageContent{Role: m.Role, Parts: make([]llms.ContentPart, len(m.Parts))}
	changed := false
	for k, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			if s := strip(p.Text); s != p.Text {
				p.Text, changed = s, true
			}
			out.Parts[k] = p
		case llms.ToolCallResponse:
			if s := strip(p.Content); s != p.Content {
				p.Content, changed = s, true
			}
			out.Parts[k] = p
		case llms.ToolCall:
			if p.FunctionCall != nil {
				if s := strip(p.FunctionCall.Arguments); s != p.FunctionCall.Arguments {
					fc := *p.FunctionCall
					fc.Arguments, changed = s, true
					p.FunctionCall = &fc
				}
			}
			out.Parts[k] = p
		default:
			out.Parts[k] = p
		}
	}
	return out, changed
}

// lastResult returns the session's view of the last call's input: what
// Compact returned to the middleware, which View recomputes without
// changing the session.
func (s *middlewareSender) lastResult(ctx context.Context) (*compact.Result, error) {
	sess := s.m.Session(s.id)
	if sess == nil {
		return nil, fmt.Errorf("the middleware holds no session %q", s.id)
	}
	res, err := s.m.Compactor().View(ctx, sess, s.in)
	if err != nil {
		return nil, fmt.Errorf("view of session %q: %w", s.id, err)
	}
	return res, nil
}

func (s *middlewareSender) recall(ctx context.Context, input string) (string, error) {
	return s.tool.Call(middleware.WithSession(ctx, s.id), input)
}

// keep stores the originals of what res compacts that are not stored yet.
func (o *oursSender) keep(ctx context.Context, in []llms.MessageContent, res *compact.Result) error {
	var add []store.Original
	for k, ref := range res.Refs {
		if ref != "" && k < len(in) && !o.kept[ref] {
			o.kept[ref] = true
			add = append(add, recall.OriginalOf(ref, "", in[k]))
		}
	}
	if err := o.store.PutOriginals(ctx, o.s.ID(), add); err != nil {
		return fmt.Errorf("store %d originals: %w", len(add), err)
	}
	return nil
}

func (o *oursSender) lastResult(context.Context) (*compact.Result, error) {
	if o.res == nil {
		return nil, fmt.Errorf("no call of session %q succeeded", o.s.ID())
	}
	return o.res, nil
}

func (o *oursSender) recall(ctx context.Context, input string) (string, error) {
	return o.tool.Call(ctx, input)
}
