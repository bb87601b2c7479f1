/** The SGR codes Markdown is shown with; each style has its own off code so styles nest. */
export const SGR = {
  boldOn: '\x1b[1m',
  boldOff: '\x1b[22m',
  italicOn: '\x1b[3m',
  italicOff: '\x1b[23m',
  strikeOn: '\x1b[9m',
  strikeOff: '\x1b[29m',
  codeOn: '\x1b[33m',
  codeOff: '\x1b[39m',
  dimOn: '\x1b[2m',
  dimOff: '\x1b[22m',
  linkOn: '\x1b[4;34m',
  linkOff: '\x1b[24;39m',
  headingMajorOn: '\x1b[1;4m',
  headingOn: '\x1b[1m',
  headingOff: '\x1b[22;24m',
} as const;
