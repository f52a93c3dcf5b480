import Testing

/// The CLI suites that load the whole machine (1,000 payments at once) or wait on a terminal in real time (tmux):
/// they are nested here and run one after another, so none of them runs beside another of them. Every other test
/// runs beside them; the challenge's own timers are tested on a test clock (ThreeDS2SDKTests) and do not care.
@Suite(.serialized)
enum MachineLoadingCLITests {}
