package compact

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcompact/compact/summary"
)

// redactRecord is the one redaction point of every summary the engine
// makes, whoever wrote it: rec passes summary.Record.Redacted. When
// fromModel is set (a summarizer, which may have seen the conversation
// unredacted), the secret values of the request (req.SecretValues) are
// redacted too wherever the summary repeats them bare.
func redactRecord(rec SummaryRecord, req SummarizeRequest, fromModel bool) SummaryRecord {
	var known []string
	if fromModel {
		known = req.SecretValues()
	}
	return rec.Redacted(known)
}

// recordTexts calls fn with every text of rec.
func recordTexts(rec SummaryRecord, fn func(field, s string) error) error {
	if err := fn("summary", rec.Summary); err != nil {
		return err
	}
	lists := []struct {
		name string
		l    []string
	}{{"keyPoints", rec.KeyPoints}, {"participants", rec.Context.Participants}, {"decisions", rec.Context.Decisions},
		{"unresolved", rec.Context.Unresolved}, {"domainEntities", rec.Context.DomainEntities}}
	for _, l := range lists {
		for _, s := range l.l {
			if err := fn(l.name, s); err != nil {
				return err
			}
		}
	}
	for _, a := range rec.Context.ActionItems {
		for _, s := range []string{a.Owner, a.Task, a.Due} {
			if err := fn("actionItems", s); err != nil {
				return err
			}
		}
	}
	return nil
}

// validRecordText reports a summarizer's text that is not valid UTF-8 or
// holds a NUL.
func validRecordText(rec SummaryRecord) error {
	return recordTexts(rec, func(field, s string) error {
		switch {
		case !utf8.ValidString(s):
			return fmt.Errorf("summarizer returned invalid UTF-8 in %s", field)
		case strings.IndexByte(s, 0) >= 0:
			return fmt.Errorf("summarizer returned a NUL byte in %s", field)
		}
		return nil
	})
}

// sanitizeRecord makes the rule digest's texts valid UTF-8 without NUL,
// should an extractor have let one through: the digest has no fallback.
func sanitizeRecord(rec SummaryRecord) SummaryRecord {
	if validRecordText(rec) == nil {
		return rec
	}
	clean := func(s string) string { return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "") }
	rec = rec.Clone()
	rec.Summary = clean(rec.Summary)
	for _, l := range [][]string{rec.KeyPoints, rec.Context.Participants, rec.Context.Decisions, rec.Context.Unresolved, rec.Context.DomainEntities} {
		for i := range l {
			l[i] = clean(l[i])
		}
	}
	for i, a := range rec.Context.ActionItems {
		rec.Context.ActionItems[i] = summary.ActionItem{Owner: clean(a.Owner), Task: clean(a.Task), Due: clean(a.Due)}
	}
	return rec
}
