// One folder per test run (made by test/global-setup.ts, removed when the run ends), shared by
// every test file of the run: media made once (helpers/media.ts), the CLI built once (cli/run-cli.ts).
export const RUN_FOLDER_ENV = 'SLUICE_TEST_RUN_FOLDER';
