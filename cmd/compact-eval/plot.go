package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// writePlots draws tokens.png, retention.png and cost.png into dir.
func writePlots(ev *evaluation, dir string) error {
	if err := tokensPlot(ev, filepath.Join(dir, "tokens.png")); err != nil {
		return fmt.Errorf("tokens plot: %w", err)
	}
	if err := retentionPlot(ev, filepath.Join(dir, "retention.png")); err != nil {
		return fmt.Errorf("retention plot: %w", err)
	}
	if err := writeCostPlot(ev, dir); err != nil {
		return err
	}
	if hasPeers(ev) {
		if err := peersPlot(ev, filepath.Join(dir, "peers.png")); err != nil {
			return fmt.Errorf("peers plot: %w", err)
		}
	}
	return nil
}

// tokensPlot draws the tokens sent per call of the representative run, one
// line per strategy, and the budget as a dashed line.
func tokensPlot(ev *evaluation, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Tokens sent per call: %s, %s window", strings.TrimSuffix(ev.plotRun, ".jsonl"), windowLabel(ev.plotWindow))
	p.X.Label.Text = "model call"
	p.Y.Label.Text = "tokens sent (thousands)"
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	budget := 0
	calls := 0
	for si, s := range ev.cfg.strategies {
		for _, res := range ev.results {
			if res.file != ev.plotRun || res.strategy != s || res.window != ev.plotWindow {
				continue
			}
			budget = res.budget
			var xys plotter.XYs
			for i, c := range res.calls {
				if !c.failed {
					xys = append(xys, plotter.XY{X: float64(i + 1), Y: float64(c.sent) / 1000})
				}
			}
			calls = max(calls, len(res.calls))
			if len(xys) == 0 {
				continue
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				return err
			}
			l.Color = strategyColor(si)
			l.Width = vg.Points(1.5)
			p.Add(l)
			p.Legend.Add(s, l)
		}
	}
	if budget > 0 && calls > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: 1, Y: float64(budget) / 1000}, {X: float64(calls), Y: float64(budget) / 1000}})
		if err != nil {
			return err
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Width = vg.Points(1)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("budget (%s)", fmtInt(int64(budget))), l)
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}

// retentionPlot draws the mean retention against the input tokens billed,
// one point per strategy and window: the colour is the strategy, the shape
// the window.
func retentionPlot(ev *evaluation, path string) error {
	p := plot.New()
	p.Title.Text = "Fact retention vs input tokens billed (whole corpus)"
	p.X.Label.Text = "input tokens billed (millions)"
	p.Y.Label.Text = "mean fact retention at the last call (%)"
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = false, true
	for si, s := range ev.cfg.strategies {
		first := true
		for wi, w := range ev.cfg.windows {
			r, ok := findRow(ev.rows, w, s)
			if !ok || math.IsNaN(r.meanRetention()) {
				continue
			}
			sc, err := plotter.NewScatter(plotter.XYs{{X: float64(r.billed) / 1e6, Y: 100 * r.meanRetention()}})
			if err != nil {
				return err
			}
			sc.GlyphStyle.Color = strategyColor(si)
			sc.GlyphStyle.Shape = windowShape(wi)
			sc.GlyphStyle.Radius = vg.Points(4.5)
			p.Add(sc)
			if first {
				// The legend shows the strategy's colour with a filled circle.
				ls, err := plotter.NewScatter(plotter.XYs{{}})
				if err != nil {
					return err
				}
				ls.GlyphStyle.Color = strategyColor(si)
				ls.GlyphStyle.Shape = draw.CircleGlyph{}
				ls.GlyphStyle.Radius = vg.Points(4)
				p.Legend.Add(s, ls)
				first = false
			}
		}
	}
	for wi, w := range ev.cfg.windows {
		ls, err := plotter.NewScatter(plotter.XYs{{}})
		if err != nil {
			return err
		}
		ls.GlyphStyle.Color = color.Gray{Y: 90}
		ls.GlyphStyle.Shape = windowShape(wi)
		ls.GlyphStyle.Radius = vg.Points(4)
		p.Legend.Add(windowLabel(w)+" window", ls)
	}
	// Room around the points: the legend sits in the empty lower left.
	p.X.Min, p.X.Max = 0, p.X.Max*1.05
	p.Y.Min, p.Y.Max = math.Max(0, p.Y.Min-3), 102
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}

// windowShape returns the glyph of the i-th window.
func windowShape(i int) draw.GlyphDrawer {
	shapes := []draw.GlyphDrawer{draw.RingGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	return shapes[i%len(shapes)]
}

// palette holds distinct colours, one per strategy in order.
var palette = []color.Color{
	color.RGBA{R: 60, G: 60, B: 60, A: 255},    // none
	color.RGBA{R: 44, G: 160, B: 44, A: 255},   // oldest-first
	color.RGBA{R: 31, G: 119, B: 180, A: 255},  // mask-last-N
	color.RGBA{R: 255, G: 127, B: 14, A: 255},  // ours-mask
	color.RGBA{R: 148, G: 103, B: 189, A: 255}, // ours-rule
	color.RGBA{R: 214, G: 39, B: 40, A: 255},   // ours-llm
	color.RGBA{R: 140, G: 86, B: 75, A: 255},
	color.RGBA{R: 23, G: 190, B: 207, A: 255},
	color.RGBA{R: 188, G: 189, B: 34, A: 255},
	color.RGBA{R: 227, G: 119, B: 194, A: 255},
}

// strategyColor returns the colour of the i-th strategy.
func strategyColor(i int) color.Color { return palette[i%len(palette)] }
