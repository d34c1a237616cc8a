export { ImportChooser, type ImportChooserProps } from './ImportChooser';
export { ImportErrorTable } from './ImportErrorTable';
export { importChooseFooter } from './chooseFooter';
