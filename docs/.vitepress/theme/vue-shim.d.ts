// What plain TypeScript knows of a single-file component: tsconfig.json's program (npm run check:ts) reads
// theme/index.ts, which registers TryIt.vue. vue-tsc (npm run check:vue) reads the components themselves instead.
declare module "*.vue" {
  import type { DefineComponent } from "vue";
  const component: DefineComponent;
  export default component;
}
