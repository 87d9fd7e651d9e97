# Sourced by the test launchers. The contract tests simulate a failed or slow CKB with CKB_UNAVAILABLE=1
# and CKB_MOCK_DELAY_MS; the CKB stand-in (test/fixtures/ckb-standin.js) plays those parts, so they become
# arguments of its command line and the service itself carries no test knob.
if [ -n "${CKB_COMMAND:-}" ]; then
  if [ -n "${CKB_MOCK_DELAY_MS:-}" ]; then CKB_COMMAND="$CKB_COMMAND --delay-ms $CKB_MOCK_DELAY_MS"; fi
  if [ "${CKB_UNAVAILABLE:-}" = 1 ] || [ "${CKB_UNAVAILABLE:-}" = true ]; then CKB_COMMAND="$CKB_COMMAND --unavailable"; fi
  export CKB_COMMAND
fi
unset CKB_MOCK_DELAY_MS CKB_UNAVAILABLE
