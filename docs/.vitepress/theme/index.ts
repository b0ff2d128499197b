// The default theme, plus the styles of the generated reference pages and the pre-rendered diagrams.
import DefaultTheme from "vitepress/theme";
import "./custom.css";

export default DefaultTheme;
