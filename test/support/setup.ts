// Tests fail on any unexpected Node warning (style point 11).
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning') return;
  throw new Error(`Unexpected Node warning: ${warning.name}: ${warning.message}`);
});
