// Package lighthouse owns Lighthouse-style refinement of sampled calls: collecting a trace's CPU
// profiles the way Lighthouse does, building each thread's known tasks from its trace events,
// synthesizing B/E events from the samples with the range each boundary could lie in, and
// narrowing those boundaries to the edges of the known tasks. The results match Lighthouse
// 13.5.0's cpu-profile-model.js event for event, in far less time, and can be paired into calls
// for the timeline.
package lighthouse
