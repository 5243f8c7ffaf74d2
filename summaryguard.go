package compact

import (
	"errors"
	"strings"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/summary"
)

// redactRecord is the one redaction point of every summary the engine
// makes, whoever wrote it: rec passes summary.Redact. When
// fromModel is set (a summarizer, which may have seen the conversation
// unredacted), the secret values of the request (req.SecretValues) are
// redacted too wherever the summary repeats them bare.
func redactRecord(rec SummaryRecord, req SummarizeRequest, fromModel bool) SummaryRecord {
	var known []string
	if fromModel {
		known = req.SecretValues()
	}
	return summary.Redact(rec, known)
}

// validRecordText reports a summarizer's text that is not valid UTF-8 or
// holds a NUL.
func validRecordText(rec SummaryRecord) error {
	var err error
	rec.MapTexts(func(s string) string {
		if f := msg.TextFault(s); err == nil && f != "" {
			err = errors.New("summarizer returned " + f)
		}
		return s
	})
	return err
}

// sanitizeRecord makes the rule digest's texts valid UTF-8 without NUL,
// should an extractor have let one through: the digest has no fallback.
func sanitizeRecord(rec SummaryRecord) SummaryRecord {
	if validRecordText(rec) == nil {
		return rec
	}
	return rec.MapTexts(func(s string) string { return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "") })
}
