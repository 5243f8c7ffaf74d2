package prompts

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/summary/record"
)

// SchemaVersion is the version of the structured summary schema that the
// summarizer prompt asks for and that [ParseSummary] validates. A reply may
// carry it as "schemaVersion"; a different value is rejected.
const SchemaVersion = 1

// Summary is the structured summary object the LLM summarizer asks for. Its
// JSON field names are fixed by the design: summary, keyPoints, context.
type Summary struct {
	// Summary is the narrative; it is never empty in a valid summary.
	Summary string `json:"summary"`
	// KeyPoints are the facts worth keeping, at most MaxKeyPoints.
	KeyPoints []string `json:"keyPoints"`
	// Context holds the structured context; arrays may be empty, never invented.
	Context Context `json:"context"`
}

// Context is the structured part of a [Summary]: an alias of
// [record.Context], the context a stored summary record carries.
type Context = record.Context

// ActionItem is one task found in the conversation (an alias of
// [record.ActionItem]).
type ActionItem = record.ActionItem

// MaxKeyPoints is the largest number of key points a valid summary may hold.
const MaxKeyPoints = 30

// Caps of a valid [Summary], checked by [Summary.Validate] and [ParseSummary].
// Lengths are counted in characters (runes).
const (
	// MaxItems caps each array of [Context] (participants, decisions,
	// action items, unresolved, domain entities).
	MaxItems = 50
	// MaxSummaryChars caps the narrative.
	MaxSummaryChars = 16_000
	// MaxItemChars caps every other string: a key point, a context entry,
	// an action item's owner, task or due date.
	MaxItemChars = 2_000
)

// Validate reports whether s satisfies the schema: a non-empty narrative, at
// most [MaxKeyPoints] key points, at most [MaxItems] entries in each context
// array, no string over its cap, every string valid UTF-8 without a NUL
// byte (the engine would not send it), and every action item with a task. The
// error wraps [ErrInvalidSummary] and names the first violation. Validate
// does not modify s.
func (s Summary) Validate() error {
	if strings.TrimSpace(s.Summary) == "" {
		return fmt.Errorf("%w: summary is empty", ErrInvalidSummary)
	}
	if err := checkText("summary", s.Summary); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(s.Summary); n > MaxSummaryChars {
		return fmt.Errorf("%w: summary has %d characters, at most %d", ErrInvalidSummary, n, MaxSummaryChars)
	}
	if len(s.KeyPoints) > MaxKeyPoints {
		return fmt.Errorf("%w: keyPoints has %d items, at most %d", ErrInvalidSummary, len(s.KeyPoints), MaxKeyPoints)
	}
	if err := checkStrings("keyPoints", s.KeyPoints, MaxKeyPoints); err != nil {
		return err
	}
	c := s.Context
	for _, f := range []struct {
		name  string
		items []string
	}{
		{"context.participants", c.Participants},
		{"context.decisions", c.Decisions},
		{"context.unresolved", c.Unresolved},
		{"context.domainEntities", c.DomainEntities},
	} {
		if err := checkStrings(f.name, f.items, MaxItems); err != nil {
			return err
		}
	}
	if len(c.ActionItems) > MaxItems {
		return fmt.Errorf("%w: context.actionItems has %d items, at most %d", ErrInvalidSummary, len(c.ActionItems), MaxItems)
	}
	for i, a := range c.ActionItems {
		if strings.TrimSpace(a.Task) == "" {
			return fmt.Errorf("%w: context.actionItems[%d] has no task", ErrInvalidSummary, i)
		}
		for _, f := range []struct{ name, v string }{{"owner", a.Owner}, {"task", a.Task}, {"due", a.Due}} {
			if err := checkText(fmt.Sprintf("context.actionItems[%d].%s", i, f.name), f.v); err != nil {
				return err
			}
			if n := utf8.RuneCountInString(f.v); n > MaxItemChars {
				return fmt.Errorf("%w: context.actionItems[%d].%s has %d characters, at most %d",
					ErrInvalidSummary, i, f.name, n, MaxItemChars)
			}
		}
	}
	return nil
}

// checkText reports a text that is not valid UTF-8 or holds a NUL byte: the
// engine would not send it (compact falls back to its rule digest), so such
// a reply is not a valid summary.
func checkText(name, v string) error {
	if f := msg.TextFault(v); f != "" {
		return fmt.Errorf("%w: %s holds %s", ErrInvalidSummary, name, f)
	}
	return nil
}

func checkStrings(name string, items []string, maxItems int) error {
	if len(items) > maxItems {
		return fmt.Errorf("%w: %s has %d items, at most %d", ErrInvalidSummary, name, len(items), maxItems)
	}
	for i, it := range items {
		if err := checkText(fmt.Sprintf("%s[%d]", name, i), it); err != nil {
			return err
		}
		if n := utf8.RuneCountInString(it); n > MaxItemChars {
			return fmt.Errorf("%w: %s[%d] has %d characters, at most %d", ErrInvalidSummary, name, i, n, MaxItemChars)
		}
	}
	return nil
}

// Normalized returns a copy of s with every string trimmed of surrounding
// white space, empty strings and action items without a task dropped, and
// nil arrays replaced by empty ones (so that they marshal as []). s itself is
// not modified and the copy shares no slices with it.
func (s Summary) Normalized() Summary {
	out := Summary{
		Summary:   strings.TrimSpace(s.Summary),
		KeyPoints: cleanStrings(s.KeyPoints),
		Context: Context{
			Participants:   cleanStrings(s.Context.Participants),
			Decisions:      cleanStrings(s.Context.Decisions),
			ActionItems:    make([]ActionItem, 0, len(s.Context.ActionItems)),
			Unresolved:     cleanStrings(s.Context.Unresolved),
			DomainEntities: cleanStrings(s.Context.DomainEntities),
		},
	}
	for _, a := range s.Context.ActionItems {
		a = ActionItem{Owner: strings.TrimSpace(a.Owner), Task: strings.TrimSpace(a.Task), Due: strings.TrimSpace(a.Due)}
		if a.Task != "" {
			out.Context.ActionItems = append(out.Context.ActionItems, a)
		}
	}
	return out
}

func cleanStrings(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
