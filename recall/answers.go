package recall

import (
	"fmt"

	"github.com/agentcompact/compact/extractors"
)

// The one-line answers. Each starts with extractors.RecallNotePrefix
// ("recall: "), so that the recall extractor keeps it as it is when it
// masks it. Echoed input is made one line and cut (echo).
const (
	answerEmpty            = extractors.RecallNotePrefix + `empty input; give "ref:ID" (or "ref:ID lines A-B") from a compaction marker to get an original back, or words (a path, a name, an error) to search the compacted originals.`
	answerNoSession        = extractors.RecallNotePrefix + `no session for this call, so there are no originals to recall (a wrapped model needs middleware.WithSession on the agent's context).`
	answerNothingCompacted = extractors.RecallNotePrefix + `nothing has been compacted in this session yet; everything is still in the context.`
	answerSourceFailed     = extractors.RecallNotePrefix + `could not read the compacted originals (the store failed); try again later, or go on without them.`
)

// echoBytes bounds the echo of an input in a one-line answer.
const echoBytes = 80

// echo is s made one line and cut to echoBytes.
func echo(s string) string {
	e, _ := oneLine(s, echoBytes)
	return e
}

func answerBadRef(rest string) string {
	return fmt.Sprintf(`%s"ref:%s" is not a ref; a ref is "ref:" followed by letters, digits, "_", "." or "-", as a compaction marker shows it.`,
		extractors.RecallNotePrefix, echo(rest))
}

func answerBadTail(ref, tail string) string {
	return fmt.Sprintf(`%scould not read "%s" after ref:%s; give "ref:ID" for the whole original or "ref:ID lines A-B" for some of its lines.`,
		extractors.RecallNotePrefix, echo(tail), echo(ref))
}

func answerReversed(ref string, from, to int) string {
	return fmt.Sprintf(`%slines %d-%d of ref:%s are not a range (the first comes after the last); give "ref:ID lines A-B" with A <= B.`,
		extractors.RecallNotePrefix, from, to, echo(ref))
}

func answerUnknownRef(ref string) string {
	return fmt.Sprintf(`%sno original with ref:%s in this session; give a ref a compaction marker shows, or words to search for.`,
		extractors.RecallNotePrefix, echo(ref))
}

func answerNoLongerHeld(ref string) string {
	return fmt.Sprintf(`%sthe original ref:%s is no longer held (evicted to keep memory bounded); search with words for what it said.`,
		extractors.RecallNotePrefix, echo(ref))
}

func answerOutOfRange(ref string, from, to, n int) string {
	asked := fmt.Sprintf("%d-%d", from, to)
	if to == 0 {
		asked = fmt.Sprintf("%d-", from)
	}
	if n == 0 {
		return fmt.Sprintf(`%sref:%s is empty; lines %s are out of range.`, extractors.RecallNotePrefix, echo(ref), asked)
	}
	return fmt.Sprintf(`%sref:%s has %d lines; lines %s are out of range (give "ref:%s lines 1-%d" or a part of it).`,
		extractors.RecallNotePrefix, echo(ref), n, asked, echo(ref), n)
}

func answerNoMatch(query string) string {
	return fmt.Sprintf(`%snothing compacted in this session matches "%s"; only compacted originals are searched, not what is still in the context.`,
		extractors.RecallNotePrefix, echo(query))
}
