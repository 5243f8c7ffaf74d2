package budget

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestZZUnder(t *testing.T) {
	trajs := loadCorpus(t)
	enc, _ := loadEncoder(EncodingO200k)
	type row struct {
		file  string
		i     int
		x, e  int
		texts []string
	}
	var rows []row
	for f, msgs := range trajs {
		for i, m := range msgs {
			var x, e int
			ts := messageTexts(m)
			for _, s := range ts {
				x += enc.count(s)
				e += EstimateTokens(s)
			}
			if e < x {
				rows = append(rows, row{f, i, x, e, ts})
			}
		}
	}
	sort.Slice(rows, func(a, b int) bool { return float64(rows[a].e)/float64(rows[a].x) < float64(rows[b].e)/float64(rows[b].x) })
	out, _ := os.Create(os.Getenv("ZZOUT"))
	defer out.Close()
	for _, r := range rows {
		fmt.Fprintf(out, "==== %s #%d o200k %d est %d ratio %.3f\n", r.file, r.i, r.x, r.e, float64(r.e)/float64(r.x))
		for _, s := range r.texts {
			if len(s) > 1500 {
				s = s[:1500]
			}
			fmt.Fprintf(out, "%s\n", s)
		}
	}
}
