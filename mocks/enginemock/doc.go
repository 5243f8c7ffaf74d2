// Package enginemock holds the gomock mock of compact.Summarizer, generated
// by mockgen. It is apart from package mocks because the engine's own tests
// import mocks, and this mock imports the engine.
//
//	ctrl := gomock.NewController(t)
//	s := enginemock.NewMockSummarizer(ctrl)
//	s.EXPECT().Summarize(gomock.Any(), gomock.Any()).Return(compact.SummaryRecord{Summary: "..."}, nil)
//	c, err := compact.New(compact.WithCustomSummarizer(s))
//
// Regenerate with `go generate ./mocks/enginemock/`.
package enginemock

//go:generate go run go.uber.org/mock/mockgen -destination=summarizer_mock.go -package=enginemock github.com/agentcompact/compact Summarizer
