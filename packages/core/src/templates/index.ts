export * from './schema';
export * from './languages';
export * from './limits';
export * from './placeholders';
export * from './validate';
export * from './derive';
export * from './starter-pack';
export * from './status';
