package compact

import (
	"encoding/json"

	"fmt"
	"strings"
	"sync"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/idtext"
)

// SessionVersion is the version of the JSON form of a [Session]. Version 2
// added "failed" (masked tool outputs whose extraction reported an error)
// and counts "lastCompactionLen" over the whole conversation, omitted
// messages included (see [WithOmitted]); version-1 forms still decode.
const SessionVersion = 2

// Session holds the compaction state of one conversation: the summary chain,
// which original messages the summaries cover, which tool outputs are
// masked, and the trigger state (cooldown, hysteresis). A Session is safe for
// concurrent use; calls to Compact on one Session are serialized. It
// round-trips through encoding/json (MarshalJSON, UnmarshalJSON), so it can
// be persisted and restored in another process.
type Session struct {
	mu   sync.Mutex
	st   sessionState
	memo memo
	// stats is st.Stats as of the last change (publishStats), under its
	// own lock, so that Stats never waits for a Compact call in progress.
	statsMu sync.Mutex
	stats   Stats
}

// publishStats makes st.Stats what Stats returns. Requires s.mu.
func (s *Session) publishStats() {
	s.statsMu.Lock()
	s.stats = s.st.Stats
	s.statsMu.Unlock()
}

type sessionState struct {
	Version int    `json:"version"`
	ID      string `json:"id,omitempty"`
	// Chain is the summary chain, oldest first; the last record is active.
	Chain []SummaryRecord `json:"chain,omitempty"`
	// Dropped lists the ids of original messages replaced by the active summary.
	Dropped []string `json:"dropped,omitempty"`
	// Masked maps the id of a tool message to the masked content of each of
	// its parts ("" = part unchanged).
	Masked map[string][]string `json:"masked,omitempty"`
	// Failed lists the ids of masked tool messages whose extraction
	// reported an error (stage 2 gives their rounds the tool-error priority).
	Failed map[string]bool `json:"failed,omitempty"`
	// Cut maps the id of a message cut by stage 3 to the part index and the
	// kept head and tail lengths in bytes of that part's text.
	Cut map[string]cutSpan `json:"cut,omitempty"`
	// LastCompactionLen is the conversation's length at the last compaction
	// (cooldown), messages omitted by the caller included.
	LastCompactionLen int `json:"lastCompactionLen"`
	// LastCompactionTokens is the output's tokens at the last compaction (hysteresis).
	LastCompactionTokens int `json:"lastCompactionTokens"`
	// Calibration is the provider's token count divided by ours (>= 1), see Calibrate.
	Calibration float64 `json:"calibration,omitempty"`
	Stats       Stats   `json:"stats"`

	dropped map[string]struct{}
}

// NewSession returns an empty session with the given id (any string, used in
// events; it may be empty).
func NewSession(id string) *Session {
	return &Session{st: sessionState{Version: SessionVersion, ID: id}}
}

// ID returns the session's id.
func (s *Session) ID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.ID
}

// Summaries returns a copy of the summary chain, oldest first.
func (s *Session) Summaries() []SummaryRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SummaryRecord, len(s.st.Chain))
	for i, r := range s.st.Chain {
		out[i] = r.Clone()
	}
	return out
}

// Latest returns a copy of the active summary, or nil when nothing was summarized.
func (s *Session) Latest() *SummaryRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.st.Chain) == 0 {
		return nil
	}
	r := s.st.Chain[len(s.st.Chain)-1].Clone()
	return &r
}

// Covered returns the ids of the original messages the active summary
// replaces (a new slice).
func (s *Session) Covered() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.st.Dropped...)
}

// Stats returns the session's cumulative figures as of its last Compact call
// (or Reset, or UnmarshalJSON). It does not wait for a Compact call in
// progress (one waiting for its summarizer, say): it returns the figures
// of the one before.
func (s *Session) Stats() Stats {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	return s.stats
}

// RenameIDs renames the message ids the session's state refers to (the
// summarized, masked and cut messages): an id rename maps takes its new
// name, an id it does not map is forgotten. The chain's records keep the
// ids they were made with. It is for a caller that changes how it names
// its messages (see [WithMessageIDs]), such as an adapter migrating state
// it persisted under an older scheme.
func (s *Session) RenameIDs(rename map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.st
	dropped := make([]string, 0, len(st.Dropped))
	for _, id := range st.Dropped {
		if n, ok := rename[id]; ok {
			dropped = append(dropped, n)
		}
	}
	st.Dropped, st.dropped = dropped, nil
	st.Masked = renameKeys(st.Masked, rename)
	st.Failed = renameKeys(st.Failed, rename)
	st.Cut = renameKeys(st.Cut, rename)
	s.memo = memo{}
}

func renameKeys[V any](m map[string]V, rename map[string]string) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for id, v := range m {
		if n, ok := rename[id]; ok {
			out[n] = v
		}
	}
	return out
}

// Reset forgets all compaction state, keeping the id.
func (s *Session) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = sessionState{Version: SessionVersion, ID: s.st.ID}
	s.publishStats()
}

// MarshalJSON encodes the session state.
func (s *Session) MarshalJSON() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(&s.st)
}

// UnmarshalJSON replaces the session state with a decoded one, of this
// version or an earlier one (see [SessionVersion]). It is an
// error, leaving the session unchanged, when the state is of a newer version
// than [SessionVersion] or a negative one, or when a record of its chain
// has an empty summary (a compaction would insert an empty message).
// Out-of-range numbers are clamped: a calibration to [1, MaxCalibration]
// (0 meaning none), negative positions and depths to 0.
func (s *Session) UnmarshalJSON(b []byte) error {
	var st sessionState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("compact: decode session: %w", err)
	}
	if st.Version > SessionVersion {
		return fmt.Errorf("compact: decode session: version %d is newer than %d", st.Version, SessionVersion)
	}
	if st.Version < 0 {
		return fmt.Errorf("compact: decode session: version %d is negative", st.Version)
	}
	for i := range st.Chain {
		r := &st.Chain[i]
		if strings.TrimSpace(r.Summary) == "" {
			return fmt.Errorf("compact: decode session: chain record %d (id %s) has an empty summary", i, idtext.Quote(r.ID))
		}
		r.Depth = max(0, r.Depth)
	}
	if st.Calibration != 0 {
		st.Calibration = clampCalibration(st.Calibration)
	}
	st.LastCompactionLen = max(0, st.LastCompactionLen)
	st.LastCompactionTokens = max(0, st.LastCompactionTokens)
	if st.Version < 2 {
		st.Failed = failedFromMasks(st.Masked)
	}
	st.Version = SessionVersion
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = st
	s.memo = memo{}
	s.publishStats()
	return nil
}

// droppedSet returns the set view of st.Dropped, built lazily.
func (st *sessionState) droppedSet() map[string]struct{} {
	if st.dropped == nil || len(st.dropped) != len(st.Dropped) {
		st.dropped = make(map[string]struct{}, len(st.Dropped))
		for _, id := range st.Dropped {
			st.dropped[id] = struct{}{}
		}
	}
	return st.dropped
}

// latest returns a shallow copy of the active summary, or nil: its slices
// are shared with the state, whose records' slices are never modified once
// in the chain (a compaction appends a new record): read them, do not
// write them. They are not copied because OriginalMessageIDs grows with
// the conversation (a deep copy per call was 6.4 MB of a 6.5 MB load at
// 100,000 turns).
func (st *sessionState) latest() *SummaryRecord {
	if len(st.Chain) == 0 {
		return nil
	}
	r := st.Chain[len(st.Chain)-1]
	return &r
}

// clone returns a deep copy of the state, for a compaction that may fail.
func (st *sessionState) clone() sessionState {
	ns := *st
	ns.Chain = append([]SummaryRecord(nil), st.Chain...)
	ns.Dropped = append([]string(nil), st.Dropped...)
	ns.dropped = nil
	if st.Masked != nil {
		ns.Masked = make(map[string][]string, len(st.Masked))
		for k, v := range st.Masked {
			ns.Masked[k] = v
		}
	}
	if st.Failed != nil {
		ns.Failed = make(map[string]bool, len(st.Failed))
		for k, v := range st.Failed {
			ns.Failed[k] = v
		}
	}
	if st.Cut != nil {
		ns.Cut = make(map[string]cutSpan, len(st.Cut))
		for k, v := range st.Cut {
			ns.Cut[k] = v
		}
	}
	return ns
}

// setMask records the masks of message id (and whether its extraction
// reported an error).
func (st *sessionState) setMask(id string, masks []string, failed bool) {
	if st.Masked == nil {
		st.Masked = map[string][]string{}
	}
	st.Masked[id] = masks
	if failed {
		if st.Failed == nil {
			st.Failed = map[string]bool{}
		}
		st.Failed[id] = true
	}
}

// setCut records the stage-3 cut of message id.
func (st *sessionState) setCut(id string, c cutSpan) {
	if st.Cut == nil {
		st.Cut = map[string]cutSpan{}
	}
	st.Cut[id] = c
}

// drop records message id as summarized; its mask no longer matters.
func (st *sessionState) drop(id string) {
	st.Dropped = append(st.Dropped, id)
	st.dropped = nil
	delete(st.Masked, id)
	delete(st.Failed, id)
}

// appendRecord makes r the active summary, keeping at most retain records.
func (st *sessionState) appendRecord(r SummaryRecord, retain int) {
	st.Chain = append(st.Chain, r)
	if n := len(st.Chain); n > retain {
		st.Chain = append([]SummaryRecord(nil), st.Chain[n-retain:]...)
	}
}

// forgetAbsent forgets the ids present does not report (messages the
// caller omitted, all summarized): from the dropped list and from the
// masks and cuts, so that the state stays proportional to the input.
func (st *sessionState) forgetAbsent(present func(id string) bool) {
	kept := st.Dropped[:0:0]
	for _, id := range st.Dropped {
		if present(id) {
			kept = append(kept, id)
		}
	}
	if len(kept) != len(st.Dropped) {
		st.Dropped, st.dropped = kept, nil
	}
	for id := range st.Masked {
		if !present(id) {
			delete(st.Masked, id)
			delete(st.Failed, id)
		}
	}
	for id := range st.Cut {
		if !present(id) {
			delete(st.Cut, id)
		}
	}
}

// failedFromMasks derives the failed set of a version-1 state from its
// masks' fact lines.
func failedFromMasks(masked map[string][]string) map[string]bool {
	var failed map[string]bool
	for id, masks := range masked {
		for _, m := range masks {
			if st, ok := extractors.FormattedStatus(m); ok && st == extractors.StatusError {
				if failed == nil {
					failed = map[string]bool{}
				}
				failed[id] = true
				break
			}
		}
	}
	return failed
}

func (st *sessionState) updateStats(total, original, active int) {
	s := &st.Stats
	s.MessagesTotal = total
	s.Summaries = len(st.Chain)
	*s = s.WithTokens(original, active) // statstokens.go
}

// MaxCalibration bounds the calibration factor of [Session.Calibrate].
const MaxCalibration = 4.0

// Calibrate records how many more tokens the provider counted for a
// request than the engine did: ratio is the provider's prompt tokens
// divided by the engine's count of the same request. When the provider
// counts more (a model without a public tokenizer, tool schemas the engine
// does not see), later calls shrink the session's effective budget by the
// factor, an exponential moving average (weight 1/2) clamped to
// [1, MaxCalibration]. A ratio that is not positive and finite is ignored.
// Calibration never enlarges the budget.
func (s *Session) Calibrate(ratio float64) {
	if !(ratio > 0) || !finite(ratio) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.st.Calibration
	if old < 1 {
		old = 1
	}
	s.st.Calibration = clampCalibration((old + ratio) / 2)
}

// clampCalibration bounds a calibration factor to [1, MaxCalibration].
func clampCalibration(f float64) float64 { return min(MaxCalibration, max(1, f)) }

// Calibration returns the session's calibration factor (1 when none).
func (s *Session) Calibration() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(1, s.st.Calibration)
}

func (st *sessionState) effectiveBudget(b int) int {
	if st.Calibration > 1 {
		return max(1, int(float64(b)/st.Calibration))
	}
	return b
}
