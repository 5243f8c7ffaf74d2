package compact

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// specificityDensity is the exponent of a fact line's length in its
// specificity: the sum of its words' inverse frequencies is divided by
// (words+1)^specificityDensity, so that a short line naming something
// outranks a long one naming the same thing among talk. On the chats of
// docs/eval (a generic input, probe answers older than a token buffer of
// the same budget holds) the exponents 0, 0.5, 1, 1.5 and 2 kept, at 8k
// over conversations joined by four, 18.5%, 20.2%, 27.4%, 30.4% and 29.8%
// of them (recency alone: 12.5%).
const specificityDensity = 1.5

// rankBySpecificity orders the fact lines of a conversation digest (the
// new facts, then the previous digest's lines) by group (the user's
// statements, the AI's, the user's questions), and in a group by how
// specific a line is per token: the sum, over its distinct content words,
// of their inverse frequency among all the lines, divided by its length
// (specificityDensity). A line naming what is said once ("we watched
// Armageddon", "my gym plays techno") outranks one of words every turn
// uses ("okay, I'll try", "I love them"), whether it is new or an earlier
// summary's: within its cap the digest keeps the most specific facts of
// the whole conversation, not only the latest. Ties keep the incoming
// order (newest first). lines is sorted in place.
func rankBySpecificity(lines []string) {
	df := map[string]int{}
	words := make([][]string, len(lines))
	for i, l := range lines {
		words[i] = contentWords(l)
		for _, w := range words[i] {
			df[w]++
		}
	}
	n := float64(len(lines))
	score := make([]float64, len(lines))
	group := make([]int, len(lines))
	for i, ws := range words {
		group[i] = lineGroup(lines[i])
		var sum float64
		for _, w := range ws {
			sum += math.Log(1 + n/float64(df[w]))
		}
		score[i] = sum / math.Pow(float64(countFields(lines[i], -1))+1, specificityDensity)
	}
	idx := make([]int, len(lines))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ia, ib := idx[a], idx[b]
		if group[ia] != group[ib] {
			return group[ia] < group[ib]
		}
		return score[ia] > score[ib]
	})
	sorted := make([]string, len(lines))
	for k, i := range idx {
		sorted[k] = lines[i]
	}
	copy(lines, sorted)
}

// contentWords returns the distinct lower-cased words of a fact line that
// can name something: three or more letters or digits, not a function
// word, the speaker's label left out.
func contentWords(line string) []string {
	if i := strings.Index(line, ": "); i >= 0 && i < 12 {
		line = line[i+2:]
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		w = strings.Trim(w, "'")
		if len(w) < 3 || functionWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// functionWords are the words of talk that name nothing; a fact line's
// specificity leaves them out. Read only.
var functionWords = setOf(`the and you your yours for are but not was were have has had with
		this that these those they them their there then than what when where which who whom why how
		its it's i'm i've i'll i'd don't dont didn't didnt can't cant won't wont isn't that's
		just really very much many more most some any all also too yes yeah yep nope okay haha
		will would could should can may might must shall been being from into onto about over
		like love enjoy want know think going get got make made good great nice well sure thanks
		thank lol one out now still even our ours she her hers him his you're we're let's`)
