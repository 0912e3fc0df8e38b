// uPlot and its stylesheet, in a chunk of their own: loaded when the Sales tab first draws a chart,
// so the admin page's own chunk does not carry them.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export default uPlot;
