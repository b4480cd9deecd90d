process.env.CDK_VALIDATION = 'false';
