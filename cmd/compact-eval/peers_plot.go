package main

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// peersPlot draws the cost with OpenAI-style prompt caching, relative to
// no compaction, against the mean retention of ours (peerCompared) and
// every peer: one point per strategy and window, the colour the strategy,
// the shape the window.
func peersPlot(ev *evaluation, path string) error {
	p := plot.New()
	p.Title.Text = "Peers: cost with prompt caching vs fact retention"
	p.X.Label.Text = "cost with OpenAI-style caching, relative to no compaction"
	p.Y.Label.Text = "mean fact retention at the last call (%)"
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, false
	legend := map[string]bool{}
	for wi, w := range ev.cfg.windows {
		n, ok := findRow(ev.rows, w, stratNone)
		if !ok || n.costOpenAI <= 0 {
			continue
		}
		for si, r := range peerRows(ev.rows, w, ev.cfg.strategies) {
			if math.IsNaN(r.meanRetention()) {
				continue
			}
			sc, err := plotter.NewScatter(plotter.XYs{{X: r.costOpenAI / n.costOpenAI, Y: 100 * r.meanRetention()}})
			if err != nil {
				return err
			}
			sc.GlyphStyle.Shape, sc.GlyphStyle.Radius, sc.GlyphStyle.Color = windowShape(wi), vg.Points(4.5), strategyColor(si)
			p.Add(sc)
			if !legend[r.strategy] {
				legend[r.strategy] = true
				ls, err := plotter.NewScatter(plotter.XYs{{}})
				if err != nil {
					return err
				}
				ls.GlyphStyle.Color, ls.GlyphStyle.Shape, ls.GlyphStyle.Radius = strategyColor(si), draw.CircleGlyph{}, vg.Points(4)
				p.Legend.Add(r.strategy, ls)
			}
		}
	}
	for wi, w := range ev.cfg.windows {
		ls, err := plotter.NewScatter(plotter.XYs{{}})
		if err != nil {
			return err
		}
		ls.GlyphStyle.Shape, ls.GlyphStyle.Radius = windowShape(wi), vg.Points(4)
		p.Legend.Add(windowLabel(w)+" window", ls)
	}
	p.Y.Max = 102
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}
