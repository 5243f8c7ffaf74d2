package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Targets of ours at the target window, over the whole corpus.
const (
	targetWindow = 32000
	// targetReduction is the token reduction the headroom analysis asks
	// about (what a -60% target would need); no longer a target.
	targetReduction  = 0.60
	targetPaths      = 0.98
	targetExceptions = 0.90
	targetStable     = 0.95
)

// strategyDoc describes a strategy for the report, or returns "" for an unknown name.
func strategyDoc(name string) string {
	switch {
	case name == stratNone:
		return "no compaction: the whole conversation every call (the baseline; it may exceed the window, counted as budget violations for information only)"
	case name == stratOldest:
		return "langchaingo's `memory.ConversationTokenBuffer` behaviour: drop the oldest message, one at a time, until the history fits the budget; system prompt kept; tool pairs are not respected"
	case strings.HasPrefix(name, stratMaskPre):
		return "observation masking (SWE-agent `LastNObservations`, the baseline of Lindenbauer et al. 2025): all tool outputs but the last " +
			strings.TrimPrefix(name, stratMaskPre) + " replaced by `Old environment output: (N lines omitted)`; no budget enforcement"
	case name == stratOursMask:
		return "compact, `WithMaskOnly(true)`: old tool outputs replaced by their extractor summary; drops and summarizes only when masking cannot keep the budget"
	case name == stratOursRule:
		return "compact, defaults: mask, then drop by priority and summarize with the rule-based digest"
	case name == stratOursLLM:
		return "compact with an LLM summarizer (see below) asked with today's capped, redacted transcript (a summarizer that is not the agent's model)"
	case name == stratOursLLMSame:
		return "`ours-llm` with the agent's own model as the summarizer: cache-safe requests (the agent's last request, unchanged, plus one instruction; `llmsummary.WithCacheSafe`), whose repeated prefix a provider's cache serves"
	case isPeer(name):
		d, _ := findPeer(name)
		return d.doc
	case isOurs(name) && strings.Contains(name, ":"):
		base, tuning, _ := strings.Cut(name, ":")
		return strategyDoc(base) + "; tuned: `" + tuning + "`"
	}
	return ""
}

func isOurs(name string) bool { return strings.HasPrefix(name, "ours-") }

func fmtInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func pct(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

// signedPct shows a reduction as a signed change: 0.62 is "-62.0%".
func signedPct(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	if math.Abs(f) < 0.0005 {
		return "0.0%"
	}
	return fmt.Sprintf("%+.1f%%", -100*f)
}

func dollars(f float64) string { return fmt.Sprintf("$%.2f", f) }

func windowLabel(w int) string {
	if w%1000 == 0 {
		return strconv.Itoa(w/1000) + "k"
	}
	return strconv.Itoa(w)
}

// tableA returns the header and rows of the tokens and cost table of one window.
func tableA(rows []row, w int) ([]string, [][]string) {
	head := []string{"strategy", "input tokens billed", "vs none", "peak context (max / mean of runs)", "compactions per run",
		"summarizer calls", "summarizer tokens in / out", "cost, no cache", "cost, cached at 10%", "at 25%", "at 50%"}
	var out [][]string
	for _, r := range rows {
		if r.window != w {
			continue
		}
		cpr := 0.0
		if r.runs > 0 {
			cpr = float64(r.compactions) / float64(r.runs)
		}
		out = append(out, []string{r.strategy, fmtInt(r.billed), signedPct(r.reduction),
			fmtInt(int64(r.peak)) + " / " + fmtInt(int64(math.Round(r.meanPeak))), fmt.Sprintf("%.1f", cpr),
			fmtInt(int64(r.sumCalls)), fmtInt(r.sumIn) + " / " + fmtInt(r.sumOut),
			dollars(r.costNoCache), dollars(r.cost[0]), dollars(r.cost[1]), dollars(r.cost[2])})
	}
	return head, out
}

// tableB returns the header and rows of the retention and invariants table of one window.
func tableB(rows []row, w int) ([]string, [][]string) {
	head := []string{"strategy", "paths", "exceptions", "exit statuses", "instructions", "identifiers", "mean",
		"budget violations", "tool-pair violations", "errors", "prefix-stable calls"}
	var out [][]string
	for _, r := range rows {
		if r.window != w {
			continue
		}
		bv := fmtInt(int64(r.budgetViolations))
		if r.strategy == stratNone {
			bv += " (info)"
		}
		out = append(out, []string{r.strategy, pct(r.retention[factPaths]), pct(r.retention[factExceptions]),
			pct(r.retention[factExits]), pct(r.retention[factInstructions]), pct(r.retention[factIdentifiers]), pct(r.meanRetention()),
			bv, fmtInt(int64(r.pairViolations)), fmtInt(int64(r.failed)), pct(r.stableShare())})
	}
	return head, out
}

// tableC returns the header and rows of the recall table of one window:
// coverage of the compacted originals by ref and by search, and what refs
// cost. Strategies that do not compact losslessly show n/a.
func tableC(rows []row, w int) ([]string, [][]string) {
	head := []string{"strategy", "originals compacted", "back by ref", "searchable", "found by search", "checkpoints", "failed checks", "ref tokens", "share of billed"}
	var out [][]string
	for _, r := range rows {
		if r.window != w {
			continue
		}
		if !r.recall.measured {
			out = append(out, []string{r.strategy, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"})
			continue
		}
		rc := r.recall
		out = append(out, []string{r.strategy, fmtInt(int64(rc.originals)), pct(r.recallByRef()), fmtInt(int64(rc.searchable)),
			pct(r.recallBySearch()), fmtInt(int64(rc.checks)), fmtInt(int64(rc.failed)), fmtInt(rc.refTokens), pct2(r.refShare())})
	}
	return head, out
}

// pct2 shows a small share with two decimals.
func pct2(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}

func markdownTable(b *strings.Builder, head []string, rows [][]string) {
	b.WriteString("| " + strings.Join(head, " | ") + " |\n")
	seps := make([]string, len(head))
	for i := range seps {
		seps[i] = "---"
		if i > 0 {
			seps[i] = "---:"
		}
	}
	b.WriteString("| " + strings.Join(seps, " | ") + " |\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
}

func textTable(w io.Writer, head []string, rows [][]string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
}

// printTables prints both tables of every window on w.
func printTables(w io.Writer, ev *evaluation) {
	fmt.Fprintf(w, "%d trajectories, %d messages, %d model calls per strategy and window, in %s\n",
		len(ev.files), ev.messages, ev.calls, ev.elapsed.Round(100_000_000))
	for _, win := range ev.cfg.windows {
		budget := 0
		for _, r := range ev.rows {
			if r.window == win {
				budget = r.budget
			}
		}
		fmt.Fprintf(w, "\n== window %s (budget %s tokens): used-later retention\n", fmtInt(int64(win)), fmtInt(int64(budget)))
		h, rs := tableLater(ev.rows, win)
		textTable(w, h, rs)
		fmt.Fprintf(w, "\n== window %s: tokens and cost\n", fmtInt(int64(win)))
		h, rs = tableA(ev.rows, win)
		textTable(w, h, rs)
		fmt.Fprintf(w, "\n== window %s: facts our extractors target, retention at the last call; invariants\n", fmtInt(int64(win)))
		h, rs = tableB(ev.rows, win)
		textTable(w, h, rs)
		fmt.Fprintf(w, "\n== window %s: recall of the compacted originals, ref tokens\n", fmtInt(int64(win)))
		h, rs = tableC(ev.rows, win)
		textTable(w, h, rs)
		fmt.Fprintf(w, "\n== window %s: cost with prompt caching, as providers bill it\n", fmtInt(int64(win)))
		h, rs = tableCost(ev.rows, win)
		textTable(w, h, rs)
	}
	for _, r := range ev.rows {
		if r.firstErr != "" {
			fmt.Fprintf(w, "\n%s at %s: %d calls failed; first: %s\n", r.strategy, windowLabel(r.window), r.failed, r.firstErr)
		}
	}
	for _, r := range ev.rows {
		if r.recall.failed > 0 {
			fmt.Fprintf(w, "\n%s at %s: %d recall checks failed; first: %s\n", r.strategy, windowLabel(r.window), r.recall.failed, r.recall.failures[0])
		}
	}
	if l := recallSummary(ev.rows); l != "" {
		fmt.Fprintln(w, "\n"+l)
	}
	for _, win := range ev.cfg.windows {
		if h, rs := tableSources(ev, win, stratOursRule); len(rs) > 0 {
			fmt.Fprintf(w, "\n== window %s: %s per source\n", fmtInt(int64(win)), stratOursRule)
			textTable(w, h, rs)
		}
	}
	if lines := sourceTargetLines(ev); len(lines) > 0 {
		fmt.Fprintln(w, "\n== targets per source")
		for _, l := range lines {
			fmt.Fprintln(w, strings.ReplaceAll(l, "**", ""))
		}
	}
	if lines := targetLines(ev); len(lines) > 0 {
		fmt.Fprintf(w, "\n== targets at %s\n", windowLabel(targetWindow))
		for _, l := range lines {
			fmt.Fprintln(w, strings.ReplaceAll(l, "**", ""))
		}
	}
}

// findRow returns the row of strategy s at window w.
func findRow(rows []row, w int, s string) (row, bool) {
	for _, r := range rows {
		if r.window == w && r.strategy == s {
			return r, true
		}
	}
	return row{}, false
}

// targetLines checks the targets of ours at the target window.
func targetLines(ev *evaluation) []string {
	var lines []string
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**MISSED**"
	}
	for _, r := range ev.rows {
		if r.window != targetWindow || !isOurs(r.strategy) {
			continue
		}
		viol := r.budgetViolations + r.pairViolations + r.failed
		l := fmt.Sprintf("- `%s`: input tokens %s vs none; paths %s (>= 98%%): %s; exceptions %s (>= 90%%): %s; prefix-stable %s (>= 95%%): %s; violations and errors %d (0): %s",
			r.strategy, signedPct(r.reduction),
			pct(r.retention[factPaths]), mark(r.retention[factPaths] >= targetPaths),
			pct(r.retention[factExceptions]), mark(math.IsNaN(r.retention[factExceptions]) || r.retention[factExceptions] >= targetExceptions),
			pct(r.stableShare()), mark(r.stableShare() >= targetStable),
			viol, mark(viol == 0))
		if r.recall.measured {
			l += fmt.Sprintf("; recall by ref %s (100%%): %s; by search %s (100%%): %s", pct(r.recallByRef()),
				mark(r.recall.byRef == r.recall.originals), pct(r.recallBySearch()), mark(r.recall.bySearch == r.recall.searchable))
		}
		for _, base := range ev.cfg.strategies {
			if base != stratOldest && !strings.HasPrefix(base, stratMaskPre) {
				continue
			}
			b, ok := findRow(ev.rows, targetWindow, base)
			if !ok {
				continue
			}
			better := r.meanRetention() > b.meanRetention() && r.billed <= b.billed
			l += fmt.Sprintf("; vs %s: mean retention %s vs %s at %s vs %s tokens: %s", base, pct(r.meanRetention()),
				pct(b.meanRetention()), fmtInt(r.billed), fmtInt(b.billed), mark(better))
		}
		lines = append(lines, l)
	}
	return lines
}

// renderReport returns the markdown report.
func renderReport(ev *evaluation) string {
	var b strings.Builder
	cfg := ev.cfg
	b.WriteString("# Compaction on real agent trajectories\n\n")
	b.WriteString("Generated by `cmd/compact-eval` (do not edit by hand; run it again). Command:\n\n")
	fmt.Fprintf(&b, "```\n%s\n```\n\n", cfg.command)
	fmt.Fprintf(&b, "%d trajectories (%d messages) from `%s`; %d model calls per strategy and window; %d strategies at %d windows; %s on %d CPUs (GOMAXPROCS), %d trajectories at once.\n\n",
		len(ev.files), ev.messages, filepathSlash(cfg.dir), ev.calls, len(cfg.strategies), len(cfg.windows),
		ev.elapsed.Round(100_000_000), runtime.GOMAXPROCS(0), cfg.workers)

	writeSummary(&b, ev)
	writeLater(&b, ev)
	b.WriteString("## Method\n\n")
	b.WriteString("Each trajectory is replayed as an agent would run it: one model call per assistant message, whose input is the conversation before that message; the real assistant message and tool results then follow from the file, whatever the strategy sent. ")
	if cfg.via == viaEngine {
		b.WriteString("Ours is replayed through the engine directly (`compact.Compactor.Compact`, one `Session` per run). ")
	} else {
		b.WriteString("Ours is replayed through the middleware as an agent calls its model: `middleware.Wrap` around a recording model, one conversation per run (`middleware.WithSession`); what the recording model received is what was sent. ")
	}
	fmt.Fprintf(&b, "Tokens are counted with the gpt-4o tokenizer (`budget.NewCounter(\"gpt-4o\")`, %s, with the engine's per-message overhead) for every strategy. ", ev.encoding)
	b.WriteString("Every strategy gets the same budget per window: the window minus the engine's default reserved output (4,096 tokens, or a quarter of windows under 16,384).\n\n")
	b.WriteString("| strategy | what it does |\n| --- | --- |\n")
	for _, s := range cfg.strategies {
		fmt.Fprintf(&b, "| `%s` | %s |\n", s, strategyDoc(s))
	}
	fmt.Fprintf(&b, "\n`ours-llm` summarizer: %s. Its calls and tokens are counted separately and added to the cost (prompt as uncached input, reply as output).\n\n", ev.sumDesc)
	fmt.Fprintf(&b, "Prices: input $%.2f and output $%.2f per million tokens (gpt-4o). The agent's own replies are the same for every strategy and left out of the cost.\n\n", cfg.prices.input, cfg.prices.output)
	b.WriteString(pricingMethod)

	if _, ok := findRow(ev.rows, targetWindow, stratNone); ok {
		fmt.Fprintf(&b, "## Results at a %s window\n\n", windowLabel(targetWindow))
		writeWindowTables(&b, ev, targetWindow)
		b.WriteString("### Targets for ours\n\n")
		for _, l := range targetLines(ev) {
			b.WriteString(l + "\n")
		}
		b.WriteString("\n")
	}
	writePeers(&b, ev)
	writeSources(&b, ev)
	writeCostPolicy(&b, ev)
	writeHeadroom(&b, ev)
	writeRest(&b, ev)
	return b.String()
}

// writeRest writes the report after its headline results: plots, all
// windows, errors, definitions and the per-trajectory table.
func writeRest(b *strings.Builder, ev *evaluation) {
	cfg := ev.cfg
	b.WriteString("## Plots\n\n")
	fmt.Fprintf(b, "![Tokens sent per call](tokens.png)\n\nTokens sent per call over `%s` at a %s window, one line per strategy; the dashed line is the budget.\n\n", ev.plotRun, windowLabel(ev.plotWindow))
	b.WriteString("![Retention versus tokens](retention.png)\n\nMean fact retention (the categories averaged) against input tokens billed over the corpus, one point per strategy and window.\n\n")
	b.WriteString("![Cost versus retention](cost.png)\n\nCost with prompt caching (cached input at 10%, relative to no compaction) against mean fact retention, one point per strategy and window (shapes as above); the grey points are the `-frontier` grid.\n\n")

	b.WriteString("## All windows\n\n")
	for _, w := range cfg.windows {
		budget := 0
		for _, r := range ev.rows {
			if r.window == w {
				budget = r.budget
			}
		}
		fmt.Fprintf(b, "### Window %s tokens (budget %s)\n\n", fmtInt(int64(w)), fmtInt(int64(budget)))
		writeWindowTables(b, ev, w)
	}
	writeErrors(b, ev)
	writeDefinitions(b)
	writePerTrajectory(b, ev)
}

func writeErrors(b *strings.Builder, ev *evaluation) {
	var errs []string
	for _, r := range ev.rows {
		if r.firstErr != "" {
			errs = append(errs, fmt.Sprintf("- `%s` at %s: %d calls failed; first: %s", r.strategy, windowLabel(r.window), r.failed, r.firstErr))
		}
		if r.recall.failed > 0 {
			e := fmt.Sprintf("- `%s` at %s: %d recall checks failed; the first (each original once per way, at its first failing checkpoint):", r.strategy, windowLabel(r.window), r.recall.failed)
			for _, f := range r.recall.failures {
				e += "\n  - " + f.String()
			}
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		b.WriteString("### Errors\n\n" + strings.Join(errs, "\n") + "\n\n")
	}
}

func writeDefinitions(b *strings.Builder) {
	b.WriteString("## Definitions\n\n")
	b.WriteString("- **Input tokens billed**: the sum over all calls of all runs of the tokens sent. **vs none**: the change against `none` at the same window.\n")
	b.WriteString("- **Peak context**: the largest context sent by any call, and the mean over runs of each run's largest.\n")
	b.WriteString("- **Compactions per run**: calls where the strategy rewrote or removed context it had sent before (for ours: `Result.Compacted`; oldest-first: more messages dropped; masking: more outputs masked), divided by the number of runs.\n")
	b.WriteString("- **Summarizer calls and tokens**: model calls made by the summarizer, their prompt tokens and reply tokens.\n")
	b.WriteString("- " + usedLaterDefinition + "\n")
	b.WriteString("- **Fact retention** (the five categories: facts our extractors were built to emit, so a diagnostic): at the last call of each run, of the facts present in the original conversation before that call, the share still visible in what was sent; averaged over the runs that hold at least one fact of the category (the runs.csv file has the per-run counts). **mean**: the average of the categories the runs hold.\n")
	for _, d := range factDefinitions {
		b.WriteString("  - " + d + "\n")
	}
	b.WriteString("- **Budget violations**: calls whose context exceeds the budget. **Tool-pair violations**: calls whose context fails `compact.CheckToolPairs` (a tool result without its call right before, or a call without its results), which providers reject. **Errors**: calls where the strategy returned an error and sent nothing.\n")
	b.WriteString("- **Prefix-stable calls**: calls whose context starts with the previous call's whole context (message by message), out of all calls but each run's first: the proxy of a provider prompt-cache hit. Its bound at a window (\"no strategy can exceed\", `bound.go`) counts the compactions of an ideal strategy that keeps verbatim only what every configuration keeps (the leading system messages, the task, the most recent user message and the last round), writes no summary and compacts only when the next call would not fit: none compacts less often.\n")
	b.WriteString("- **Recall** (lossless compaction, design invariant I8; ours only, the baselines do not compact losslessly: n/a). An original is an input message that a call's `compact.Result` does not show verbatim (masked, cut or summarized: `Result.Refs` names it), as `recall.OriginalOf` renders it. A **checkpoint** is a call whose result compacts an original no earlier checkpoint of the run saw, and each run's last call; between checkpoints the originals the adapter holds, and so the tool's answers, do not change. The result of a call through the middleware is the session's `Compactor.View` of its input, checked equal to what the wrapped model received. The run's recall tool is `(*middleware.Model).RecallTool()`, called with `middleware.WithSession` (with `-via engine`: the tool over a `store.Memory` of the originals, as the memory adapter keeps them).\n")
	b.WriteString("  - **Originals compacted**: the distinct originals (by ref) of all runs seen at a checkpoint. **Back by ref**: the share of them that every check by ref brought back whole: at each checkpoint a masked or cut original's message sent must show its ref (a summarized one shows none: the summary's recall hint points to the tool), then the tool is called with `ref:ID` and then with each page's next-page input (`ref:ID lines A-B`) until the last line, and the numbered lines read must be all the original's lines, in order, none cut (invalid UTF-8 shown as U+FFFD, as the tool shows it; a final line break adds no line).\n")
	b.WriteString("  - **Searchable**: the originals compacted at a run's last call that have a line to search for: the first line (trimmed) of at least 12 characters and at most 200 bytes (the tool's query limit), single-spaced, with a letter or digit, that occurs (ignoring case as the tool does) in no other message of the conversation so far nor in what that call sent. **Found by search**: the share of them whose search (the tool called with that line) names their ref. Searches run at the last call only, when the run holds all its originals (searching at every checkpoint costs a search of every held original per original).\n")
	b.WriteString("  - **Checkpoints**: checks by ref, one per checkpoint of each run. **Failed checks**: a ref or a search that did not bring its original back at a checkpoint, or a result that could not be read; the first ones are listed under Errors (trajectory, the call's message index, ref).\n")
	b.WriteString("  - **Ref tokens**: the tokens that refs add to what was sent, summed over all calls of all runs: for each message sent that stands for a masked or cut original, its tokens less those of the same message without its ref (` ref:ID` after a masked output's facts, `, ref:ID` in a cut marker); for the summary message, its tokens less those without `compact.RecallHint`. **Share of billed**: ref tokens over input tokens billed.\n")
	b.WriteString("- **Cost with caching**: per call, the tokens of the leading messages shared with the previous call's context are billed at 10%, 25% or 50% of the input price, the rest at the full price; plus the summarizer's tokens. Providers' cache granularity (for example OpenAI's 1,024-token minimum) is not modelled.\n\n")
}

func writePerTrajectory(b *strings.Builder, ev *evaluation) {
	cfg := ev.cfg
	fmt.Fprintf(b, "## Per trajectory at a %s window\n\n", windowLabel(ev.plotWindow))
	b.WriteString("Input tokens billed per run, and in parentheses the mean retention at the last call.\n\n")
	head := []string{"trajectory", "calls"}
	head = append(head, cfg.strategies...)
	var rows [][]string
	for _, f := range ev.files {
		line := []string{"`" + strings.TrimSuffix(f, ".jsonl") + "`", ""}
		for _, s := range cfg.strategies {
			cell := ""
			for _, res := range ev.results {
				if res.file == f && res.strategy == s && res.window == ev.plotWindow {
					line[1] = strconv.Itoa(len(res.calls))
					cell = fmtInt(int64(sumSent(res))) + " (" + pct(runMeanRetention(res)) + ")"
				}
			}
			line = append(line, cell)
		}
		rows = append(rows, line)
	}
	markdownTable(b, head, rows)
}

func writeWindowTables(b *strings.Builder, ev *evaluation, w int) {
	h, rs := tableA(ev.rows, w)
	markdownTable(b, h, rs)
	b.WriteString("\n")
	h, rs = tableB(ev.rows, w)
	b.WriteString("Retention at the last call of each run, and invariants:\n\n")
	markdownTable(b, h, rs)
	b.WriteString("\n")
	h, rs = tableC(ev.rows, w)
	b.WriteString("Recall of the compacted originals (lossless compaction), and what refs cost:\n\n")
	markdownTable(b, h, rs)
	b.WriteString("\n")
	h, rs = tableCost(ev.rows, w)
	b.WriteString("Cost with prompt caching, as providers bill it (see Method), against no compaction and langchaingo's oldest-first trimming:\n\n")
	markdownTable(b, h, rs)
	b.WriteString("\n")
}

func filepathSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

func sumSent(res runResult) int {
	n := 0
	for _, c := range res.calls {
		n += c.sent
	}
	return n
}

// runMeanRetention is the mean over the categories present of one run's retention.
func runMeanRetention(res runResult) float64 {
	s, n := 0.0, 0
	for f := range numFactKinds {
		if res.ret.present[f] > 0 {
			s += float64(res.ret.visible[f]) / float64(res.ret.present[f])
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// recallSummary is the one-line summary of recall over the strategies
// that compact losslessly, all windows pooled, or "" when there is none.
func recallSummary(rows []row) string {
	var all recallStats
	lo, hi := math.NaN(), math.NaN()
	for _, r := range rows {
		if !r.recall.measured {
			continue
		}
		all.add(r.recall)
		if sh := r.refShare(); !math.IsNaN(sh) {
			if math.IsNaN(lo) || sh < lo {
				lo = sh
			}
			if math.IsNaN(hi) || sh > hi {
				hi = sh
			}
		}
	}
	if !all.measured {
		return ""
	}
	share := pct2(lo)
	if pct2(lo) != pct2(hi) {
		share = pct2(lo) + " to " + pct2(hi)
	}
	ratio := func(n, d int) string {
		if d == 0 {
			return "n/a"
		}
		return pct(float64(n) / float64(d))
	}
	return fmt.Sprintf("recall (ours, all windows): by ref %s of %s compacted originals, by search %s of %s searchable; %d failed checks; refs and recall hints %s of the input tokens billed",
		ratio(all.byRef, all.originals), fmtInt(int64(all.originals)), ratio(all.bySearch, all.searchable), fmtInt(int64(all.searchable)),
		all.failed, share)
}
