package extractors

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkExtract measures throughput (b.SetBytes) of Registry.Extract
// plus Format over the corpus outputs and over synthetic 10 MB outputs.
func BenchmarkExtract(b *testing.B) {
	reg := Default()
	b.Run("corpus", func(b *testing.B) {
		var calls []corpusCall
		total := 0
		for _, tr := range loadCorpus(b, *corpusDir) {
			calls = append(calls, tr.calls...)
		}
		for _, c := range calls {
			total += len(c.output)
		}
		b.SetBytes(int64(total))
		b.ResetTimer()
		start := cpuTime()
		for i := 0; i < b.N; i++ {
			for _, c := range calls {
				_ = Format(reg.extract(c.call, c.output)) // uncached: the cost of extraction itself
			}
		}
		reportCPU(b, start, int64(total))
	})
	big := strings.Repeat("    def method(self, x):  # some python-looking line of code\n", 10<<20/60)
	trace := "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nValueError: x\n"
	cases := []struct{ name, tool, args, out string }{
		{"10MB/bash-cat", "bash", `{"command": "cat big.py"}`, "<returncode>0</returncode>\n<output>\n" + big + "</output>"},
		{"10MB/bash-python", "bash", `{"command": "python run.py"}`, "<returncode>1</returncode>\n<output>\n" + big + trace + "</output>"},
		{"10MB/bash-grep", "bash", `{"command": "grep -rn def ."}`, strings.Repeat("src/pkg/file.py:123:    def method(self, x):\n", 10<<20/44)},
		{"10MB/read_file", "read_file", `{"path": "big.py"}`, big},
		{"10MB/unknown", "mystery", `{}`, big},
		{"10MB/single-line", "bash", `{"command": "cat x"}`, strings.Repeat("x", 10<<20)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			call := Call{ID: "1", Name: c.tool, Arguments: c.args}
			b.SetBytes(int64(len(c.out)))
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				_ = Format(reg.extract(call, c.out)) // uncached
			}
			reportCPU(b, start, int64(len(c.out)))
		})
	}
}

// reportCPU reports the throughput per CPU second (process CPU time,
// garbage collection included) as "cpu-MB/s": unlike MB/s it does not drop
// when other processes compete for the machine.
func reportCPU(b *testing.B, start time.Duration, bytesPerOp int64) {
	b.StopTimer()
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(bytesPerOp)*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
	}
}
