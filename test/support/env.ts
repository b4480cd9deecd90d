// CDK's built-in validation costs seconds per process; an App a test builds directly would run it.
// The synth cache runs it on every scenario for test/lint (in processes of its own).
process.env.CDK_VALIDATION = 'false';
// The SDK's notice that its 2027 releases need Node 22: true, but noise in every test run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
