import LCP
