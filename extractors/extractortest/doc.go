// Package extractortest checks that an [extractors.Extractor] behaves, in
// the spirit of testing/slogtest: users run [Run] on their own extractors.
//
//	func TestMyExtractor(t *testing.T) {
//		extractortest.Run(t, extractors.Func(myExtract))
//	}
//
// Run feeds the extractor hostile and ordinary inputs (empty, binary,
// invalid UTF-8, a 10 MB output, a 1 MB single line, odd and invalid JSON
// arguments, tracebacks, secrets) and checks that it never panics, that
// [extractors.Format] of its summary stays within
// [extractors.FormatMaxBytes] and is valid UTF-8 on one line, that it is
// deterministic, that its status is one of the three statuses, and that no
// secret planted in the input appears in its key facts or metadata.
package extractortest
