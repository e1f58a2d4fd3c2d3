export * from './leak-policy';
export * from './leak-capture';
export * from './leak-scan';
