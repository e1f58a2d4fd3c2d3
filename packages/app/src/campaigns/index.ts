export * from './schemas';
export * from './campaigns';
